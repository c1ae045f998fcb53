/* eslint-disable @typescript-eslint/no-non-null-assertion -- protobuf getters and indexed reads are typed optional; each is read after its oneof case, presence or bounds are checked */
// Streams.Read: stream reads, `$all` reads and `$all` subscriptions, as Transport/Grpc/Streams.Read.cs and the
// enumerators in Transport/Enumerators (server source, v24.10.4) answer them.
import { randomUUID } from 'node:crypto';
import type * as GrpcJs from '@grpc/grpc-js';
import { type NodeContext, requiresLeader } from './context';
import { type EventFilter, filterAllows, InvalidPositionError, type LogPosition } from './log';
import { identifier, readEvent, rpcErrors, streamName, streams } from './wire';

type ReadCall = GrpcJs.ServerWritableStream<streams.ReadReq, streams.ReadResp>;
const Options = streams.ReadReq.Options;

/** The server's live buffer and read page (Enumerator.cs MaxLiveEventBufferCount, ReadBatchSize). */
const PAGE = 32;

/** Writes in order, waiting while the client's window is full; false when the call ended first. */
async function write(call: ReadCall, message: streams.ReadResp): Promise<boolean> {
  if (call.cancelled || call.destroyed) return false;
  if (call.write(message)) return true;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      call.off('drain', done);
      call.off('cancelled', done);
      call.off('close', done);
      resolve();
    };
    call.on('drain', done);
    call.on('cancelled', done);
    call.on('close', done);
  });
  return !(call.cancelled || call.destroyed);
}

function filterOf(options: streams.ReadReq.Options): { filter: EventFilter | null; checkpointEvery: number } {
  if (options.getFilterOptionCase() !== Options.FilterOptionCase.FILTER)
    return { filter: null, checkpointEvery: 0 };
  const f = options.getFilter()!;
  const onType = f.getFilterCase() === Options.FilterOptions.FilterCase.EVENT_TYPE;
  const expression = onType ? f.getEventType()! : f.getStreamIdentifier()!;
  const regex = expression.getRegex();
  const window = f.getWindowCase() === Options.FilterOptions.WindowCase.MAX ? f.getMax() : PAGE;
  return {
    filter: {
      on: onType ? 'eventType' : 'streamName',
      regex: regex ? new RegExp(regex) : null,
      prefixes: expression.getPrefixList(),
    },
    // A checkpoint every multiplier x window events considered (Enumerator.AllSubscriptionFiltered.cs).
    checkpointEvery: Math.max(1, f.getCheckpointintervalmultiplier()) * window,
  };
}

function allFrom(options: streams.ReadReq.Options.AllOptions): LogPosition | 'start' | 'end' {
  const at = options.getAllOptionCase();
  if (at === Options.AllOptions.AllOptionCase.START) return 'start';
  if (at === Options.AllOptions.AllOptionCase.END) return 'end';
  const p = options.getPosition()!;
  return { commit: BigInt(p.getCommitPosition()), prepare: BigInt(p.getPreparePosition()) };
}

function checkpointMessage(position: bigint): streams.ReadResp {
  const checkpoint = new streams.ReadResp.Checkpoint();
  checkpoint.setCommitPosition(position.toString());
  checkpoint.setPreparePosition(position.toString());
  const response = new streams.ReadResp();
  response.setCheckpoint(checkpoint);
  return response;
}

async function readStream(
  ctx: NodeContext,
  call: ReadCall,
  options: streams.ReadReq.Options,
  leaderOnly: boolean,
) {
  const so = options.getStream()!;
  const name = streamName(so.getStreamIdentifier());
  const at = so.getRevisionOptionCase();
  const from =
    at === Options.StreamOptions.RevisionOptionCase.START
      ? 'start'
      : at === Options.StreamOptions.RevisionOptionCase.END
        ? 'end'
        : BigInt(so.getRevision());
  const direction = options.getReadDirection() === Options.ReadDirection.BACKWARDS ? 'backwards' : 'forwards';
  const count = BigInt(options.getCount());
  ctx.served({ rpc: 'read', stream: name, direction, count, requiresLeader: leaderOnly });
  const result = ctx.log.readStream(name, from, direction, count, ctx.visibleEnd());
  if (result.kind === 'deleted') return call.emit('error', rpcErrors.streamDeleted(name));
  if (result.kind === 'not-found') {
    const notFound = new streams.ReadResp.StreamNotFound();
    notFound.setStreamIdentifier(identifier(name));
    const response = new streams.ReadResp();
    response.setStreamNotFound(notFound);
    await write(call, response);
    return call.end();
  }
  const structured = options.getUuidOption()?.hasStructured() ?? false;
  for (const e of result.events) {
    if (!(await write(call, readEvent(e, structured, ctx.options.streamPositions)))) return;
  }
  call.end();
}

async function readAll(
  ctx: NodeContext,
  call: ReadCall,
  options: streams.ReadReq.Options,
  leaderOnly: boolean,
) {
  const direction = options.getReadDirection() === Options.ReadDirection.BACKWARDS ? 'backwards' : 'forwards';
  const count = BigInt(options.getCount());
  ctx.served({ rpc: 'read', stream: '$all', direction, count, requiresLeader: leaderOnly });
  const { filter } = filterOf(options);
  let events;
  try {
    events = ctx.log.readAll(allFrom(options.getAll()!), direction, count, filter, ctx.visibleEnd());
  } catch (error) {
    if (error instanceof InvalidPositionError) return call.emit('error', rpcErrors.invalidReadPosition());
    throw error;
  }
  const structured = options.getUuidOption()?.hasStructured() ?? false;
  for (const e of events) if (!(await write(call, readEvent(e, structured, true)))) return;
  call.end();
}

/**
 * A catch-up subscription to `$all` (client docs, "Catch-up subscriptions":
 * https://developers.eventstore.com/clients/grpc/subscriptions.html): confirmed first, then every event after the
 * position (exclusive) in log order, system events included unless filtered out ("Server-side filtering"), then
 * `caught up`, then live. Live events are read from the log after the last one sent, so nothing is lost or sent
 * twice however slow the client is: the server reaches the same guarantee with a 32-event live buffer and, when it
 * overflows, a switch back to catching up (Enumerator.AllSubscription.cs); each time it catches up again it says
 * `caught up` again (24.10 does not send `fell behind` to clients). A filtered subscription also sends checkpoints.
 */
async function subscribe(ctx: NodeContext, call: ReadCall, options: streams.ReadReq.Options) {
  ctx.served({ rpc: 'subscribe', stream: '$all', requiresLeader: requiresLeader(call.metadata) });
  const from = allFrom(options.getAll()!);
  const { filter, checkpointEvery } = filterOf(options);
  const structured = options.getUuidOption()?.hasStructured() ?? false;
  const confirmation = new streams.ReadResp.SubscriptionConfirmation();
  confirmation.setSubscriptionId(randomUUID());
  const confirmed = new streams.ReadResp();
  confirmed.setConfirmation(confirmation);
  if (!(await write(call, confirmed))) return;
  let checkpoint: bigint;
  if (from === 'start') checkpoint = -1n;
  else if (from === 'end')
    checkpoint = ctx.log.readAll('end', 'backwards', 1n, null, ctx.visibleEnd())[0]?.position ?? -1n;
  else {
    try {
      ctx.log.readAll(from, 'forwards', 0n, null, ctx.visibleEnd());
    } catch (error) {
      if (error instanceof InvalidPositionError)
        return call.emit('error', rpcErrors.invalidSubscriptionPosition());
      throw error;
    }
    checkpoint = from.commit;
  }
  let wake: (() => void) | null = null;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    wake?.();
  };
  call.on('cancelled', stop);
  call.on('close', stop);
  const unlisten = ctx.log.onAppend(() => wake?.());
  try {
    let caughtUp = false;
    let considered = 0;
    while (!stopped) {
      const page = ctx.log.after(checkpoint, PAGE + 1, ctx.visibleEnd());
      if (page.length === 0) {
        if (!caughtUp) {
          caughtUp = true;
          const response = new streams.ReadResp();
          response.setCaughtUp(new streams.ReadResp.CaughtUp());
          if (!(await write(call, response))) return;
          if (filter && !(await write(call, checkpointMessage(checkpoint < 0n ? 0n : checkpoint)))) return;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        continue;
      }
      if (page.length > PAGE) caughtUp = false; // more than the live buffer holds: catching up again
      for (const e of page.slice(0, PAGE)) {
        checkpoint = e.position;
        considered += 1;
        if (filterAllows(filter, e) && !(await write(call, readEvent(e, structured, true)))) return;
        if (
          filter &&
          considered % checkpointEvery === 0 &&
          !(await write(call, checkpointMessage(checkpoint)))
        )
          return;
      }
    }
  } finally {
    unlisten();
  }
}

/** Streams.Read: what the request's options ask, from a leader or from a follower's view of the log. */
export function readHandler(ctx: NodeContext) {
  return (call: ReadCall): void => {
    const options = call.request.getOptions();
    if (!options) return void call.emit('error', rpcErrors.badRequest('a read needs options'));
    const leaderOnly = requiresLeader(call.metadata);
    if (leaderOnly && !ctx.isLeader()) {
      const leader = ctx.leaderEndpoint();
      return void call.emit('error', rpcErrors.notLeader(leader.host, leader.port));
    }
    if (ctx.faults.hangReads) return;
    const subscription = options.getCountOptionCase() === Options.CountOptionCase.SUBSCRIPTION;
    const all = options.getStreamOptionCase() === Options.StreamOptionCase.ALL;
    const stream = all ? '$all' : streamName(options.getStream()?.getStreamIdentifier());
    if (ctx.faults.dropReads?.(stream))
      return void call.emit('error', rpcErrors.unavailable('Connection dropped'));
    let run: Promise<unknown>;
    if (all && subscription) run = subscribe(ctx, call, options);
    else if (all) run = readAll(ctx, call, options, leaderOnly);
    else if (subscription) return void call.emit('error', rpcErrors.unimplemented('A stream subscription'));
    else run = readStream(ctx, call, options, leaderOnly);
    run.catch((error: unknown) => call.emit('error', rpcErrors.badRequest(String((error as Error).message))));
  };
}
