/**
 * A live-push watcher of the chaos scenario: subscribes to the table over WebSocket on a random process, drops its
 * connection now and then (and loses it when its process is killed), and resumes with `fromRevision` = the last
 * revision it has, on a random process. It checks on the fly that the event frames follow each other with no gap
 * and no duplicate; a fresh `view` frame (a resume refused as too far behind) moves it to that view's revision.
 */
import WebSocket from 'ws';
import type { Journal } from './journal';
import type { ServiceNode } from './nodes';
import { type Rng, sleep } from './util';

export interface Viewer {
  readonly id: string;
  readonly role: 'admin' | 'dealer' | 'supervisor' | 'compliance' | 'analyst';
}

export class Watcher {
  /** Revisions and types of the event frames, in the order received. */
  readonly revisions: number[] = [];
  readonly types: string[] = [];
  /** The view frames: the table at a revision, to compare with a fold of the stream. */
  readonly views: { revision: number; view: unknown }[] = [];
  /** The last revision this watcher has (from an event or a view); null before the first view. */
  last: number | null = null;
  connections = 0;
  resumes = 0;
  viewResets = 0;
  private stopped = false;
  private socket: WebSocket | null = null;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    readonly viewer: Viewer,
    private readonly token: string,
    private readonly tableId: string,
    private readonly nodes: readonly ServiceNode[],
    private readonly rng: Rng,
    private readonly journal: Journal,
  ) {}

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        await this.session(this.rng.pick(this.nodes));
        if (!this.stopped) await sleep(this.rng.int(20, 200));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.socket?.terminate();
    await this.loop;
  }

  /** One connection: subscribe (or resume), receive until the socket closes or is dropped on purpose. */
  private session(node: ServiceNode): Promise<void> {
    return new Promise((resolve) => {
      const ws = new WebSocket(`${node.url.replace('http', 'ws')}/ws?token=${this.token}`, {
        handshakeTimeout: 2000,
      });
      this.socket = ws;
      let asked: number | null = null;
      let drop: NodeJS.Timeout | null = null;
      ws.on('open', () => {
        this.connections++;
        asked = this.last;
        if (asked !== null) this.resumes++;
        ws.send(
          JSON.stringify({
            type: 'subscribe',
            tableId: this.tableId,
            every: true,
            ...(asked !== null ? { fromRevision: asked } : {}),
          }),
        );
        // Drop the connection now and then, as a phone on a casino floor does.
        drop = setTimeout(() => ws.terminate(), this.rng.int(1000, 5000));
      });
      ws.on('message', (raw) => this.onFrame(node, asked, String(raw)));
      ws.on('error', () => undefined);
      ws.on('close', () => {
        if (drop) clearTimeout(drop);
        resolve();
      });
    });
  }

  private onFrame(node: ServiceNode, asked: number | null, raw: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      this.journal.violation(
        'watcher-error-frame',
        `${this.name} via ${node.name}: not JSON: ${raw.slice(0, 200)}`,
      );
      return;
    }
    const frame = parsed as {
      type: string;
      revision?: number;
      view?: unknown;
      event?: { type: string };
      code?: string;
      message?: string;
    };
    const where = `${this.name} via ${node.name}`;
    switch (frame.type) {
      case 'view': {
        const v = frame.revision!;
        if (asked !== null) {
          if (v < asked)
            this.journal.violation(
              'watcher-gapless',
              `${where}: resumed from ${asked}, got a view at an older revision ${v}`,
            );
          else this.viewResets++;
        }
        this.views.push({ revision: v, view: frame.view });
        this.last = v;
        return;
      }
      case 'event': {
        const r = frame.revision!;
        if (this.last === null)
          this.journal.violation('watcher-gapless', `${where}: event ${r} before any view`);
        else if (r <= this.last)
          this.journal.violation('watcher-gapless', `${where}: duplicate event ${r} (had ${this.last})`);
        else if (r !== this.last + 1)
          this.journal.violation(
            'watcher-gapless',
            `${where}: gap, events ${this.last + 1}..${r - 1} never came`,
          );
        this.revisions.push(r);
        this.types.push(frame.event?.type ?? '?');
        this.last = Math.max(this.last ?? r, r);
        return;
      }
      case 'resumed':
        if (frame.revision !== this.last)
          this.journal.violation(
            'watcher-gapless',
            `${where}: resumed at ${frame.revision} but the last event received is ${this.last}`,
          );
        return;
      case 'error':
        this.journal.violation('watcher-error-frame', `${where}: ${frame.code} ${frame.message}`);
        return;
      default:
        return;
    }
  }
}
