import type { ServiceConfig } from '../config/config';

/** What one client may ask of the live push (configured by the COUP_WS_* variables; see the README). */
export interface LiveLimits {
  /** Largest WebSocket message read, in bytes; a larger one closes the socket (1009). */
  readonly maxFrameBytes: number;
  /** Sockets one token subject may hold open at once; the next is refused (close 4429). */
  readonly maxSocketsPerPrincipal: number;
  /** A resume further behind than this many events gets a fresh view instead of the missed events. */
  readonly maxResumeEvents: number;
  /** Messages a socket may send per second, after a burst of twice as many; a subscribe counts as several. */
  readonly messagesPerSecond: number;
  /** Other players' bets reach a watcher as one totals frame per this many ms at most. */
  readonly coalesceMs: number;
  /** Unsent bytes a socket may hold; past them it is dropped (close 4008) and resumes. */
  readonly maxBufferedBytes: number;
  /** Whose X-Forwarded-For gives a socket's client address (COUP_TRUST_PROXY, as for HTTP requests). */
  readonly trustProxy: boolean | number | readonly string[];
}

export const LIVE_LIMITS = Symbol('LIVE_LIMITS');

export const DEFAULT_LIVE_LIMITS: LiveLimits = Object.freeze({
  maxFrameBytes: 4096,
  maxSocketsPerPrincipal: 20,
  maxResumeEvents: 2000,
  messagesPerSecond: 20,
  coalesceMs: 250,
  maxBufferedBytes: 1024 * 1024,
  trustProxy: false,
});

/** Socket commands (bets, clears, rebets) one socket may have waiting for their answer at once. */
export const MAX_COMMANDS_IN_FLIGHT = 32;

/** A subscribe may read up to maxResumeEvents events: it costs this many messages of the rate. */
export const SUBSCRIBE_COST = 5;

/** A token bucket: `capacity` tokens at most, refilled at `perSecond`; time from `now` (ms). */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    private readonly capacity: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = capacity;
    this.at = now();
  }

  /** Takes `n` tokens if there are that many; false (and nothing taken) otherwise. */
  take(n = 1): boolean {
    this.refill();
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }

  /** Milliseconds until `n` tokens are there. */
  waitMs(n = 1): number {
    this.refill();
    return this.tokens >= n ? 0 : Math.ceil(((n - this.tokens) * 1000) / this.perSecond);
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) * this.perSecond) / 1000);
    this.at = now;
  }
}

/** The live limits of a service configuration. */
export function liveLimitsOf(config: ServiceConfig): LiveLimits {
  return {
    maxFrameBytes: config.wsMaxFrameBytes,
    maxSocketsPerPrincipal: config.wsMaxSocketsPerPrincipal,
    maxResumeEvents: config.wsMaxResumeEvents,
    messagesPerSecond: config.wsMessagesPerSecond,
    coalesceMs: config.wsCoalesceMs,
    maxBufferedBytes: config.wsMaxBufferedBytes,
    trustProxy: config.http.trustProxy,
  };
}
