/* eslint-disable @typescript-eslint/no-non-null-assertion -- protobuf getters and indexed reads are typed optional; each is read after its oneof case, presence or bounds are checked */
// A stand-in node: a gRPC server on a loopback port serving the parts of EventStoreDB's client protocol that Coup's
// adapter uses through @eventstore/db-client (Streams, ServerFeatures, Gossip), over one log shared by the nodes of
// a stand-in cluster. A STAND-IN FOR TESTS: see ../README.md for what it is and is not.
import { randomUUID } from 'node:crypto';
import type * as GrpcJs from '@grpc/grpc-js';
import { GossipService } from '@eventstore/db-client/generated/gossip_grpc_pb';
import * as gossip from '@eventstore/db-client/generated/gossip_pb';
import { ServerFeaturesService } from '@eventstore/db-client/generated/serverfeatures_grpc_pb';
import * as features from '@eventstore/db-client/generated/serverfeatures_pb';
import { StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb';
import { appendHandler, batchAppendHandler } from './appends';
import {
  type AppendRefusal,
  DEFAULT_OPTIONS,
  type NodeContext,
  requiresLeader,
  type ResolvedOptions,
  type ServedCall,
  type StandinOptions,
} from './context';
import { Faults } from './faults';
import { type Expected, StandinLog } from './log';
import { readHandler } from './reads';
import { grpc, rpcErrors, shared, streamName, streams, uuidMessage } from './wire';

export type NodeRole = 'leader' | 'follower';

/** The nodes of one stand-in cluster: one log, one leader. */
export class StandinCluster {
  readonly log: StandinLog;
  readonly nodes: StandinNode[] = [];

  constructor(readonly options: ResolvedOptions) {
    this.log = new StandinLog({ statsEvery: options.statsEvery });
  }

  get leader(): StandinNode {
    return this.nodes.find((n) => n.role === 'leader')!;
  }

  /** `esdb://` for every node (discovery through gossip picks the leader, as `nodePreference=leader` does). */
  get connectionString(): string {
    const hosts = this.nodes.map((n) => `${n.host}:${n.port}`).join(',');
    return `esdb://${hosts}?tls=false&nodePreference=leader`;
  }

  /**
   * A leader change (server docs, configuration/cluster.md "Node roles"): `to` becomes the leader; the others
   * follow. With `staleFollowers`, each follower's reads stay where the log was at the change (a follower that has
   * not replicated the new leader's writes yet) until `catchUp()`; writes sent to a follower are forwarded to the
   * leader, and a read that requires the leader is refused with the leader's address (NotLeader).
   */
  electLeader(to: StandinNode, options: { staleFollowers?: boolean } = {}): void {
    for (const node of this.nodes) {
      node.role = node === to ? 'leader' : 'follower';
      node.staleAt = node === to || !options.staleFollowers ? null : this.log.endPosition;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.close()));
  }
}

export class StandinNode {
  readonly faults = new Faults();
  /** Every RPC served, in order (tests read it to see what the client asked). */
  readonly served: ServedCall[] = [];
  /** Every append refused for its size, in order. */
  readonly refusedAppends: AppendRefusal[] = [];
  readonly instanceId = randomUUID();
  role: NodeRole = 'leader';
  /** A stale follower's reads see only records before this position. */
  staleAt: bigint | null = null;
  private server: GrpcJs.Server | null = null;
  private boundPort = 0;

  constructor(
    readonly cluster: StandinCluster,
    readonly host: string,
  ) {}

  get port(): number {
    return this.boundPort;
  }

  get log(): StandinLog {
    return this.cluster.log;
  }

  /** The connection string of this node alone (`esdb://host:port?tls=false`). */
  get connectionString(): string {
    return `esdb://${this.host}:${this.port}?tls=false`;
  }

  get running(): boolean {
    return this.server !== null;
  }

  /** Serves on `port` (0: a free one the first time; the same one on every restart). */
  async start(port = this.boundPort): Promise<void> {
    if (this.server) return;
    const server = new grpc.Server({
      'grpc.max_receive_message_length': 17 * 1024 * 1024,
      // The client pings every 10 s (keepAliveInterval); never refuse it for pinging.
      'grpc.keepalive_permit_without_calls': 1,
      'grpc.http2.min_ping_interval_without_data_ms': 1_000,
    });
    const ctx = this.context();
    server.addService(StreamsService, {
      read: readHandler(ctx),
      append: appendHandler(ctx),
      batchAppend: batchAppendHandler(ctx),
      delete: this.deleteHandler('delete'),
      tombstone: this.deleteHandler('tombstone'),
    });
    server.addService(ServerFeaturesService, { getSupportedMethods: this.featuresHandler() });
    server.addService(GossipService, { read: this.gossipHandler() });
    this.boundPort = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`${this.host}:${port}`, grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    this.server = server;
  }

  /** Stops serving at once (every call and connection ends, as when the server process dies); the data stays. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    server?.forceShutdown();
  }

  /** Drops every connection and call, then serves again on the same port (a network blip or a restart). */
  async dropConnections(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async close(): Promise<void> {
    await this.stop();
  }

  private context(): NodeContext {
    return {
      log: this.cluster.log,
      options: this.cluster.options,
      faults: this.faults,
      isLeader: () => this.role === 'leader',
      leaderEndpoint: () => ({ host: this.cluster.leader.host, port: this.cluster.leader.port }),
      visibleEnd: () => this.staleAt ?? this.cluster.log.endPosition,
      served: (call) => this.served.push(call),
      refused: (refusal) => this.refusedAppends.push(refusal),
    };
  }

  /** Streams.Delete (soft) and Streams.Tombstone (hard), with their expected revision (Streams.Delete.cs). */
  private deleteHandler(kind: 'delete' | 'tombstone') {
    return (
      call: GrpcJs.ServerUnaryCall<streams.DeleteReq | streams.TombstoneReq, streams.DeleteResp>,
      callback: GrpcJs.sendUnaryData<streams.DeleteResp | streams.TombstoneResp>,
    ): void => {
      const options = call.request.getOptions()!;
      const stream = streamName(options.getStreamIdentifier());
      this.served.push({ rpc: kind, stream, requiresLeader: requiresLeader(call.metadata) });
      const expected: Expected = options.hasAny()
        ? 'any'
        : options.hasNoStream()
          ? 'no_stream'
          : options.hasStreamExists()
            ? 'stream_exists'
            : BigInt(options.getRevision());
      const outcome =
        kind === 'delete' ? this.log.softDelete(stream, expected) : this.log.tombstone(stream, expected);
      if (outcome.kind === 'stream-deleted')
        return callback(rpcErrors.streamDeleted(stream) as GrpcJs.ServiceError);
      if (outcome.kind === 'wrong-expected-version') {
        const shown = typeof expected === 'bigint' ? expected : expected === 'no_stream' ? -1n : -2n;
        return callback(
          rpcErrors.wrongExpectedVersion(
            kind === 'delete' ? 'Delete' : 'Tombstone',
            stream,
            shown,
            outcome.current,
          ) as GrpcJs.ServiceError,
        );
      }
      const response = kind === 'delete' ? new streams.DeleteResp() : new streams.TombstoneResp();
      const position =
        kind === 'delete' ? new streams.DeleteResp.Position() : new streams.TombstoneResp.Position();
      position.setCommitPosition(outcome.position.toString());
      position.setPreparePosition(outcome.position.toString());
      (response as streams.DeleteResp).setPosition(position as streams.DeleteResp.Position);
      callback(null, response);
    };
  }

  /** ServerFeatures.GetSupportedMethods, as ServerFeatures.cs lists the endpoints (names lower-cased). */
  private featuresHandler() {
    return (
      _call: GrpcJs.ServerUnaryCall<shared.Empty, features.SupportedMethods>,
      callback: GrpcJs.sendUnaryData<features.SupportedMethods>,
    ): void => {
      this.served.push({ rpc: 'features', stream: null, requiresLeader: false });
      const methods: [string, string, string[]][] = [
        ['event_store.client.streams.streams', 'read', ['position', 'events']],
        ['event_store.client.streams.streams', 'append', []],
        ['event_store.client.streams.streams', 'delete', []],
        ['event_store.client.streams.streams', 'tombstone', []],
        ['event_store.client.gossip.gossip', 'read', []],
        ['event_store.client.server_features.serverfeatures', 'getsupportedmethods', []],
      ];
      if (this.cluster.options.batchAppend)
        methods.push(['event_store.client.streams.streams', 'batchappend', ['deadline_duration']]);
      const answer = new features.SupportedMethods();
      answer.setEventStoreServerVersion(this.cluster.options.serverVersion);
      answer.setMethodsList(
        methods.map(([service, method, list]) => {
          const m = new features.SupportedMethod();
          m.setServiceName(service);
          m.setMethodName(method);
          m.setFeaturesList(list);
          return m;
        }),
      );
      callback(null, answer);
    };
  }

  /** Gossip.Read: every node of the cluster with its role and address (gRPC and HTTP share the port). */
  private gossipHandler() {
    return (
      _call: GrpcJs.ServerUnaryCall<shared.Empty, gossip.ClusterInfo>,
      callback: GrpcJs.sendUnaryData<gossip.ClusterInfo>,
    ): void => {
      this.served.push({ rpc: 'gossip', stream: null, requiresLeader: false });
      const info = new gossip.ClusterInfo();
      info.setMembersList(
        this.cluster.nodes.map((node) => {
          const member = new gossip.MemberInfo();
          member.setInstanceId(uuidMessage(node.instanceId, false));
          member.setTimeStamp(String(Date.now() * 10_000));
          member.setState(
            node.role === 'leader'
              ? gossip.MemberInfo.VNodeState.LEADER
              : gossip.MemberInfo.VNodeState.FOLLOWER,
          );
          member.setIsAlive(node.running);
          const endpoint = new gossip.EndPoint();
          endpoint.setAddress(node.host);
          endpoint.setPort(node.port);
          member.setHttpEndPoint(endpoint);
          return member;
        }),
      );
      callback(null, info);
    };
  }
}

/** A single stand-in node (its own one-node cluster), serving once this resolves. */
export async function startStandin(options: StandinOptions = {}): Promise<StandinNode> {
  const cluster = await startStandinCluster(1, options);
  return cluster.nodes[0]!;
}

/** A stand-in cluster of `size` nodes on one log; the first is the leader. */
export async function startStandinCluster(
  size: number,
  options: StandinOptions = {},
): Promise<StandinCluster> {
  const { port, ...rest } = options;
  const resolved: ResolvedOptions = { ...DEFAULT_OPTIONS, ...withoutUndefined(rest) };
  const cluster = new StandinCluster(resolved);
  for (let i = 0; i < size; i++) {
    const node = new StandinNode(cluster, resolved.host);
    node.role = i === 0 ? 'leader' : 'follower';
    cluster.nodes.push(node);
    await node.start(i === 0 ? (port ?? 0) : 0);
  }
  return cluster;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
