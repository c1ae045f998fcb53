/* eslint-disable @typescript-eslint/no-non-null-assertion -- protobuf getters and indexed reads are typed optional; each is read after its oneof case, presence or bounds are checked */
// The stand-in's wire format: the messages and error statuses of EventStoreDB's gRPC client protocol, built with the
// generated code that @eventstore/db-client ships (generated/*_pb.js from the server's .proto files), so the stand-in
// speaks exactly what the client parses. Errors are shaped as Core/Services/Transport/Grpc/RpcExceptions.cs (unary and
// server-streaming calls) and Status.cs (BatchAppend's per-append errors) build them (server source, tag v24.10.4).
import { createRequire } from 'node:module';
import type * as GrpcJs from '@grpc/grpc-js';
import { Any } from 'google-protobuf/google/protobuf/any_pb';
import { Empty } from 'google-protobuf/google/protobuf/empty_pb';
import { BinaryWriter } from 'google-protobuf';
import * as shared from '@eventstore/db-client/generated/shared_pb';
import * as streams from '@eventstore/db-client/generated/streams_pb';
import * as status from '@eventstore/db-client/generated/status_pb';
import type { StoredEvent } from './log';

/** The @grpc/grpc-js that @eventstore/db-client (and its generated service definitions) use: one instance. */
export const grpc = createRequire(require.resolve('@eventstore/db-client'))('@grpc/grpc-js') as typeof GrpcJs;

export { shared, streams, status };

/** ulong.MaxValue: what a server sends as a position it does not have (Transport/Common/Position.cs FromInt64(-1)). */
export const NO_POSITION = 18_446_744_073_709_551_615n;

const decoder = new TextDecoder();

export function streamName(identifier: shared.StreamIdentifier | undefined): string {
  return identifier ? decoder.decode(identifier.getStreamName_asU8()) : '';
}

export function identifier(name: string): shared.StreamIdentifier {
  const id = new shared.StreamIdentifier();
  id.setStreamName(new TextEncoder().encode(name));
  return id;
}

/** A UUID message to its lower-case text (string or structured form). */
export function uuidText(uuid: shared.UUID | undefined): string {
  if (!uuid) return '';
  if (uuid.hasStructured()) {
    const s = uuid.getStructured()!;
    const hex =
      BigInt.asUintN(64, BigInt(s.getMostSignificantBits())).toString(16).padStart(16, '0') +
      BigInt.asUintN(64, BigInt(s.getLeastSignificantBits())).toString(16).padStart(16, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  return uuid.getString().toLowerCase();
}

export function uuidMessage(text: string, structured: boolean): shared.UUID {
  const uuid = new shared.UUID();
  if (!structured) {
    uuid.setString(text);
    return uuid;
  }
  const hex = text.replace(/-/g, '');
  const s = new shared.UUID.Structured();
  s.setMostSignificantBits(BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`)).toString());
  s.setLeastSignificantBits(BigInt.asIntN(64, BigInt(`0x${hex.slice(16)}`)).toString());
  uuid.setStructured(s);
  return uuid;
}

/**
 * A stored event as a read answer (Streams.Read.cs ConvertToReadEvent). `withPosition` false: as servers before 22.6
 * answer a stream read, with no position (ulong.MaxValue, and `no_position` for the read event).
 */
export function readEvent(
  event: StoredEvent,
  structuredIds: boolean,
  withPosition: boolean,
): streams.ReadResp {
  const position = withPosition ? event.position.toString() : NO_POSITION.toString();
  const recorded = new streams.ReadResp.ReadEvent.RecordedEvent();
  recorded.setId(uuidMessage(event.id, structuredIds));
  recorded.setStreamIdentifier(identifier(event.streamId));
  recorded.setStreamRevision(BigInt.asUintN(64, event.revision).toString());
  recorded.setCommitPosition(position);
  recorded.setPreparePosition(position);
  const metadata = recorded.getMetadataMap();
  metadata.set('type', event.type);
  metadata.set('created', event.created.toString());
  metadata.set('content-type', event.contentType);
  recorded.setCustomMetadata(event.metadata);
  recorded.setData(event.data);
  const read = new streams.ReadResp.ReadEvent();
  read.setEvent(recorded);
  if (withPosition) read.setCommitPosition(position);
  else read.setNoPosition(new shared.Empty());
  const response = new streams.ReadResp();
  response.setEvent(read);
  return response;
}

function metadataOf(entries: Record<string, string>): GrpcJs.Metadata {
  const metadata = new grpc.Metadata();
  for (const [key, value] of Object.entries(entries)) metadata.set(key, value);
  return metadata;
}

export type RpcError = Partial<GrpcJs.StatusObject> & { code: GrpcJs.status };

export const rpcErrors = {
  /** A commit, prepare or forward timeout of a plain Append: ABORTED (the client's TimeoutError). */
  timeout: (message: string): RpcError => ({
    code: grpc.status.ABORTED,
    details: `Operation timed out: ${message}`,
  }),
  notLeader: (host: string, port: number): RpcError => ({
    code: grpc.status.NOT_FOUND,
    details: 'Leader info available',
    metadata: metadataOf({
      exception: 'not-leader',
      'leader-endpoint-host': host,
      'leader-endpoint-port': String(port),
    }),
  }),
  streamDeleted: (stream: string): RpcError => ({
    code: grpc.status.FAILED_PRECONDITION,
    details: `Event stream '${stream}' is deleted.`,
    metadata: metadataOf({ exception: 'stream-deleted', 'stream-name': stream }),
  }),
  wrongExpectedVersion: (operation: string, stream: string, expected: bigint, actual: bigint): RpcError => ({
    code: grpc.status.FAILED_PRECONDITION,
    details: `${operation} failed due to WrongExpectedVersion. Stream: ${stream}, Expected version: ${expected}, Actual version: ${actual}`,
    metadata: metadataOf({
      exception: 'wrong-expected-version',
      'stream-name': stream,
      'expected-version': expected.toString(),
      'actual-version': actual.toString(),
    }),
  }),
  maxAppendSize: (max: number): RpcError => ({
    code: grpc.status.INVALID_ARGUMENT,
    details: `Maximum Append Size of ${max} Exceeded.`,
    metadata: metadataOf({ exception: 'maximum-append-size-exceeded', 'maximum-append-size': String(max) }),
  }),
  /** KurrentDB's per-event limit (`MaxAppendEventSize`); @eventstore/db-client 6 does not know this error. */
  maxAppendEventSize: (eventId: string, size: number, max: number): RpcError => ({
    code: grpc.status.INVALID_ARGUMENT,
    details: `Event with Id: ${eventId}, Size: ${size}, exceeds Maximum Append Event Size of ${max}.`,
    metadata: metadataOf({
      exception: 'maximum-append-event-size-exceeded',
      'maximum-append-event-size': String(max),
      'event-id': eventId,
      'proposed-append-event-size': String(size),
    }),
  }),
  /** A read of `$all` from where no record starts (the ReadAllForwards enumerator's unexpected-result branch). */
  invalidReadPosition: (): RpcError => ({
    code: grpc.status.UNKNOWN,
    details: 'Unexpected ReadAllResult: InvalidPosition',
  }),
  /** The same for a subscription (ReadResponseException.InvalidPosition). */
  invalidSubscriptionPosition: (): RpcError => ({
    code: grpc.status.INVALID_ARGUMENT,
    details: 'Trying to read from an invalid position.',
  }),
  unavailable: (why: string): RpcError => ({ code: grpc.status.UNAVAILABLE, details: why }),
  unimplemented: (what: string): RpcError => ({
    code: grpc.status.UNIMPLEMENTED,
    details: `${what} is not served by the EventStoreDB stand-in`,
  }),
  badRequest: (message: string): RpcError => ({ code: grpc.status.INVALID_ARGUMENT, details: message }),
};

function packed(code: GrpcJs.status, message: string, typeName: string, bytes: Uint8Array): status.Status {
  const any = new Any();
  any.pack(bytes, typeName);
  const s = new status.Status();
  s.setCode(code as number);
  s.setMessage(message);
  s.setDetails(any);
  return s;
}

/** BatchAppend's per-append error statuses (google.rpc.Status with a packed detail), as Status.cs builds them. */
export const batchErrors = {
  wrongExpectedVersion: (current: bigint, expected: bigint | string): status.Status => {
    const detail = new shared.WrongExpectedVersion();
    if (current < 0n) detail.setCurrentNoStream(new Empty());
    else detail.setCurrentStreamRevision(current.toString());
    if (typeof expected === 'bigint') detail.setExpectedStreamPosition(expected.toString());
    else if (expected === 'any') detail.setExpectedAny(new Empty());
    else if (expected === 'stream_exists') detail.setExpectedStreamExists(new Empty());
    else detail.setExpectedNoStream(new Empty());
    return packed(
      grpc.status.ALREADY_EXISTS,
      'WrongExpectedVersion',
      'event_store.client.WrongExpectedVersion',
      detail.serializeBinary(),
    );
  },
  streamDeleted: (stream: string): status.Status => {
    const detail = new shared.StreamDeleted();
    detail.setStreamIdentifier(identifier(stream));
    return packed(
      grpc.status.NOT_FOUND,
      'StreamDeleted',
      'event_store.client.StreamDeleted',
      detail.serializeBinary(),
    );
  },
  timeout: (): status.Status =>
    packed(
      grpc.status.DEADLINE_EXCEEDED,
      'Timeout',
      'event_store.client.Timeout',
      new shared.Timeout().serializeBinary(),
    ),
  maxAppendSize: (max: number): status.Status => {
    const detail = new shared.MaximumAppendSizeExceeded();
    detail.setMaxappendsize(max);
    return packed(
      grpc.status.INVALID_ARGUMENT,
      'MaximumAppendSizeExceeded',
      'event_store.client.MaximumAppendSizeExceeded',
      detail.serializeBinary(),
    );
  },
  /** Not in the client's generated code: written field by field (shared.proto MaximumAppendEventSizeExceeded). */
  maxAppendEventSize: (eventId: string, size: number, max: number): status.Status => {
    const writer = new BinaryWriter();
    writer.writeString(1, eventId);
    writer.writeUint32(2, size);
    writer.writeUint32(3, max);
    return packed(
      grpc.status.INVALID_ARGUMENT,
      'MaximumAppendEventSizeExceeded',
      'event_store.client.MaximumAppendEventSizeExceeded',
      writer.getResultBuffer(),
    );
  },
};
