/* eslint-disable @typescript-eslint/no-non-null-assertion -- protobuf getters and indexed reads are typed optional; each is read after its oneof case, presence or bounds are checked */
// Streams.Append and Streams.BatchAppend: checked as the server checks them (Transport/Grpc/Streams.Append.cs and
// Streams.BatchAppend.cs at v24.10.4), written to the log, answered, with the node's faults applied.
import type * as GrpcJs from '@grpc/grpc-js';
import { Empty } from 'google-protobuf/google/protobuf/empty_pb';
import { type NodeContext, requiresLeader } from './context';
import type { AppendOutcome, Expected, ProposedEvent } from './log';
import { sizeOnDisk } from './log';
import {
  batchErrors,
  identifier,
  type RpcError,
  rpcErrors,
  shared,
  streamName,
  streams,
  uuidText,
} from './wire';

type CommitResult =
  | { readonly kind: 'done'; readonly outcome: AppendOutcome }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'unavailable' }
  | { readonly kind: 'hang' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes an append, with the node's faults: the commit timeout is the smaller of the server's write timeout and
 * the client's deadline (Streams.BatchAppend.cs `Min(GetRequestedTimeout, _writeTimeout)`); a commit slower than it
 * is answered as a timeout and still lands when it completes, as a write that missed its commit timeout does.
 */
async function commit(
  ctx: NodeContext,
  stream: string,
  expected: Expected,
  events: readonly ProposedEvent[],
  timeoutMs: number,
): Promise<CommitResult> {
  await ctx.faults.beforeAppend?.(stream);
  const fault = ctx.faults.take(stream);
  if (fault === 'hang') return { kind: 'hang' };
  if (fault === 'timeout-before-write') return { kind: 'timeout' };
  if (fault === 'unavailable-before-write') return { kind: 'unavailable' };
  const delay = ctx.faults.commitDelayMs;
  if (delay > 0 && delay >= timeoutMs) {
    ctx.faults.landLater(() => ctx.log.append(stream, expected, events), delay);
    await sleep(timeoutMs);
    return { kind: 'timeout' };
  }
  if (delay > 0) await sleep(delay);
  const outcome = ctx.log.append(stream, expected, events);
  if (fault === 'timeout-after-write') return { kind: 'timeout' };
  if (fault === 'unavailable-after-write') return { kind: 'unavailable' };
  return { kind: 'done', outcome };
}

/** Adds an event to a pending append, or names the limit it breaks (the server checks as the events arrive). */
function admit(
  ctx: NodeContext,
  pending: { events: ProposedEvent[]; size: number },
  message: streams.AppendReq.ProposedMessage | streams.BatchAppendReq.ProposedMessage,
): { error: 'event'; id: string; size: number } | { error: 'append' } | null {
  const metadata = message.getMetadataMap();
  const event: ProposedEvent = {
    id: uuidText(message.getId()),
    type: metadata.get('type') ?? '',
    contentType: metadata.get('content-type') ?? 'application/octet-stream',
    data: message.getData_asU8(),
    metadata: message.getCustomMetadata_asU8(),
  };
  const size = sizeOnDisk(event);
  if (size > ctx.options.maxAppendEventSize) return { error: 'event', id: event.id, size };
  pending.size += size;
  if (pending.size > ctx.options.maxAppendSize) return { error: 'append' };
  pending.events.push(event);
  return null;
}

function expectedOf(
  numbered: () => string,
  isAny: boolean,
  isNoStream: boolean,
  isExists: boolean,
): Expected {
  if (isAny) return 'any';
  if (isNoStream) return 'no_stream';
  if (isExists) return 'stream_exists';
  return BigInt(numbered());
}

function appendSuccess(outcome: Extract<AppendOutcome, { kind: 'success' }>): streams.AppendResp {
  const success = new streams.AppendResp.Success();
  if (outcome.lastRevision < 0n) success.setNoStream(new shared.Empty());
  else success.setCurrentRevision(outcome.lastRevision.toString());
  const position = new streams.AppendResp.Position();
  position.setCommitPosition(outcome.position.toString());
  position.setPreparePosition(outcome.position.toString());
  success.setPosition(position);
  const response = new streams.AppendResp();
  response.setSuccess(success);
  return response;
}

function appendWrongVersion(expected: Expected, current: bigint): streams.AppendResp {
  const wrong = new streams.AppendResp.WrongExpectedVersion();
  if (expected === 'any') wrong.setExpectedAny(new shared.Empty());
  else if (expected === 'stream_exists') wrong.setExpectedStreamExists(new shared.Empty());
  else if (expected === 'no_stream') wrong.setExpectedNoStream(new shared.Empty());
  else wrong.setExpectedRevision(expected.toString());
  if (current < 0n) wrong.setCurrentNoStream(new shared.Empty());
  else wrong.setCurrentRevision(current.toString());
  const response = new streams.AppendResp();
  response.setWrongExpectedVersion(wrong);
  return response;
}

/** Streams.Append: one stream of messages (options, then the events), one answer. */
export function appendHandler(ctx: NodeContext) {
  return (
    call: GrpcJs.ServerReadableStream<streams.AppendReq, streams.AppendResp>,
    callback: GrpcJs.sendUnaryData<streams.AppendResp>,
  ): void => {
    let options: streams.AppendReq.Options | undefined;
    const pending = { events: [] as ProposedEvent[], size: 0 };
    let answered = false;
    const answer = (error: RpcError | null, response?: streams.AppendResp): void => {
      if (answered) return;
      answered = true;
      if (error) callback(error as GrpcJs.ServiceError);
      else callback(null, response);
    };
    const leaderOnly = requiresLeader(call.metadata);
    call.on('data', (request: streams.AppendReq) => {
      if (answered) return;
      if (request.hasOptions()) {
        options = request.getOptions();
        ctx.served({
          rpc: 'append',
          stream: streamName(options?.getStreamIdentifier()),
          requiresLeader: leaderOnly,
        });
        return;
      }
      const refused = admit(ctx, pending, request.getProposedMessage()!);
      if (!refused) return;
      ctx.refused({ stream: streamName(options?.getStreamIdentifier()), limit: refused.error });
      if (refused.error === 'event')
        answer(rpcErrors.maxAppendEventSize(refused.id, refused.size, ctx.options.maxAppendEventSize));
      else answer(rpcErrors.maxAppendSize(ctx.options.maxAppendSize));
    });
    call.on('end', () => {
      if (answered || !options) return answer(options ? null : rpcErrors.badRequest('no options'));
      const stream = streamName(options.getStreamIdentifier());
      if (leaderOnly && !ctx.isLeader()) {
        const leader = ctx.leaderEndpoint();
        return answer(rpcErrors.notLeader(leader.host, leader.port));
      }
      const expected = expectedOf(
        () => options!.getRevision(),
        options.hasAny(),
        options.hasNoStream(),
        options.hasStreamExists(),
      );
      const deadline = call.getDeadline();
      const timeout = Math.min(
        ctx.options.writeTimeoutMs,
        deadline instanceof Date ? Math.max(0, deadline.getTime() - Date.now()) : Number.POSITIVE_INFINITY,
      );
      void commit(ctx, stream, expected, pending.events, timeout).then((result) => {
        if (result.kind === 'hang') return;
        if (result.kind === 'timeout') return answer(rpcErrors.timeout('CommitTimeout'));
        if (result.kind === 'unavailable') return answer(rpcErrors.unavailable('Connection dropped'));
        const { outcome } = result;
        if (outcome.kind === 'success') return answer(null, appendSuccess(outcome));
        if (outcome.kind === 'stream-deleted') return answer(rpcErrors.streamDeleted(stream));
        answer(null, appendWrongVersion(expected, outcome.current));
      });
    });
  };
}

interface PendingBatch {
  stream: string;
  expected: Expected;
  events: ProposedEvent[];
  size: number;
  timeoutMs: number;
}

function batchResponse(correlation: shared.UUID | undefined, stream: string): streams.BatchAppendResp {
  const response = new streams.BatchAppendResp();
  response.setCorrelationId(correlation);
  response.setStreamIdentifier(identifier(stream));
  return response;
}

function batchSuccess(
  response: streams.BatchAppendResp,
  outcome: Extract<AppendOutcome, { kind: 'success' }>,
) {
  const success = new streams.BatchAppendResp.Success();
  if (outcome.lastRevision < 0n) success.setNoStream(new Empty());
  else success.setCurrentRevision(outcome.lastRevision.toString());
  const position = new shared.AllStreamPosition();
  position.setCommitPosition(outcome.position.toString());
  position.setPreparePosition(outcome.position.toString());
  success.setPosition(position);
  response.setSuccess(success);
}

/**
 * Streams.BatchAppend: one long-lived call carrying many appends, each split into requests with a correlation id
 * (options first, `is_final` last), each answered on its own; the size is summed over the requests of an append.
 */
export function batchAppendHandler(ctx: NodeContext) {
  return (call: GrpcJs.ServerDuplexStream<streams.BatchAppendReq, streams.BatchAppendResp>): void => {
    const pending = new Map<string, PendingBatch>();
    let inFlight = 0;
    let ended = false;
    const leaderOnly = requiresLeader(call.metadata);
    const finish = (): void => {
      if (ended && inFlight === 0) call.end();
    };
    const send = (response: streams.BatchAppendResp): void => {
      if (!call.cancelled && !call.destroyed) call.write(response);
    };
    call.on('data', (request: streams.BatchAppendReq) => {
      const id = uuidText(request.getCorrelationId());
      const correlation = request.getCorrelationId();
      if (request.hasOptions()) {
        const options = request.getOptions()!;
        const stream = streamName(options.getStreamIdentifier());
        ctx.served({ rpc: 'batchAppend', stream, requiresLeader: leaderOnly });
        const deadline = options.getDeadline()?.toDate();
        const requested = deadline ? deadline.getTime() - Date.now() : Number.POSITIVE_INFINITY;
        const timeoutMs = Math.min(requested, ctx.options.writeTimeoutMs);
        if (timeoutMs <= 0) {
          const response = batchResponse(correlation, stream);
          response.setError(batchErrors.timeout());
          return send(response);
        }
        pending.set(id, {
          stream,
          expected: expectedOf(
            () => options.getStreamPosition(),
            options.hasAny(),
            options.hasNoStream(),
            options.hasStreamExists(),
          ),
          events: [],
          size: 0,
          timeoutMs,
        });
      }
      const batch = pending.get(id);
      if (!batch) return;
      for (const message of request.getProposedMessagesList()) {
        const refused = admit(ctx, batch, message);
        if (!refused) continue;
        pending.delete(id);
        ctx.refused({ stream: batch.stream, limit: refused.error });
        const response = batchResponse(correlation, batch.stream);
        response.setError(
          refused.error === 'event'
            ? batchErrors.maxAppendEventSize(refused.id, refused.size, ctx.options.maxAppendEventSize)
            : batchErrors.maxAppendSize(ctx.options.maxAppendSize),
        );
        return send(response);
      }
      if (!request.getIsFinal()) return;
      pending.delete(id);
      if (leaderOnly && !ctx.isLeader()) {
        // The server throws the leader's address out of the whole call (ConvertMessage in Streams.BatchAppend.cs).
        const leader = ctx.leaderEndpoint();
        call.emit('error', rpcErrors.notLeader(leader.host, leader.port));
        return;
      }
      inFlight += 1;
      void commit(ctx, batch.stream, batch.expected, batch.events, batch.timeoutMs).then((result) => {
        inFlight -= 1;
        if (result.kind === 'hang') return;
        if (result.kind === 'unavailable') {
          call.emit('error', rpcErrors.unavailable('Connection dropped'));
          return;
        }
        const response = batchResponse(correlation, batch.stream);
        if (result.kind === 'timeout') response.setError(batchErrors.timeout());
        else if (result.outcome.kind === 'success') batchSuccess(response, result.outcome);
        else if (result.outcome.kind === 'stream-deleted')
          response.setError(batchErrors.streamDeleted(batch.stream));
        else response.setError(batchErrors.wrongExpectedVersion(result.outcome.current, batch.expected));
        send(response);
        finish();
      });
    });
    call.on('end', () => {
      ended = true;
      finish();
    });
  };
}
