// The compose files and the hosted-CI workflow that run Coup on EventStoreDB, read as YAML: the single node, the
// three-node cluster the service really connects to (issue 20), restart policies, and the CI matrix of servers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConnectionString } from '@eventstore/db-client/dist/Client/parseConnectionString';
import { parse } from 'yaml';
// eslint-disable-next-line @nx/enforce-module-boundaries -- tools/ scripts belong to no project; their tests live here
import { buildsFor, eventStoreDbSuites } from '../../eventstoredb/run-suites';

const ROOT = join(__dirname, '..', '..', '..');

interface Service {
  image?: string;
  build?: unknown;
  profiles?: string[];
  restart?: string;
  environment?: Record<string, string | number>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}

interface Compose {
  name: string;
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

const load = <T>(file: string): T => parse(readFileSync(join(ROOT, file), 'utf8'), { merge: true }) as T;
const single = load<Compose>('docker-compose.yml');
const cluster = load<Compose>('docker-compose.cluster.yml');

/** `[host ip, host port, container port]` of a short-syntax port mapping. */
function mapping(port: string): [string, string, string] {
  const match = /^(?:(\d+\.\d+\.\d+\.\d+):)?(.+):(\d+)$/.exec(port);
  if (!match) throw new Error(`not a host:container port mapping: ${port}`);
  return [match[1] ?? '0.0.0.0', match[2]!, match[3]!];
}

const env = (service: Service, key: string) => String(service.environment?.[key] ?? '');
const nodesOf = (compose: Compose) =>
  Object.keys(compose.services).filter((name) => compose.services[name]!.image?.startsWith('eventstore/'));

describe('docker-compose.yml: one EventStoreDB node and the service', () => {
  const { eventstore, 'table-service': service } = single.services;

  it('starts the node and the service with a plain `docker compose up` (no profiles), and nothing else', () => {
    const plain = Object.keys(single.services).filter(
      (name) => single.services[name]!.profiles === undefined,
    );
    expect(plain.sort()).toEqual(['eventstore', 'table-service']);
  });

  it('points the service at the node, once the node is healthy', () => {
    expect(env(service!, 'EVENTSTORE_CONNECTION_STRING')).toContain('esdb://eventstore:2113?tls=false');
    expect(service!.depends_on).toEqual({ eventstore: { condition: 'service_healthy' } });
    expect(eventstore!.healthcheck!.test.join(' ')).toContain('http://localhost:2113/health/live');
  });

  it("publishes the node's 2113 on loopback, on a host port test:eventstoredb can choose", () => {
    expect(eventstore!.ports!.map(mapping)).toEqual([['127.0.0.1', '${EVENTSTORE_HOST_PORT:-2113}', '2113']]);
  });
});

describe('docker-compose.cluster.yml: a three-node cluster the service connects to', () => {
  const nodes = nodesOf(cluster);
  const service = cluster.services['table-service']!;

  it('is a compose project of its own, without the single node', () => {
    expect(cluster.name).not.toBe(single.name);
    expect(cluster.services['eventstore']).toBeUndefined();
    expect(nodes).toEqual(['es1', 'es2', 'es3']);
    expect(Object.keys(cluster.services).sort()).toEqual(['es1', 'es2', 'es3', 'table-service']);
  });

  it('makes each node a member of a cluster of three that seeds its gossip with the two others', () => {
    for (const name of nodes) {
      const node = cluster.services[name]!;
      expect(env(node, 'EVENTSTORE_CLUSTER_SIZE')).toBe('3');
      expect(env(node, 'EVENTSTORE_DISCOVER_VIA_DNS')).toBe('false');
      const seeds = env(node, 'EVENTSTORE_GOSSIP_SEED').split(',').sort();
      expect(seeds).toEqual(nodes.filter((other) => other !== name).map((other) => `${other}:2113`));
    }
  });

  it('has each node bind every interface and advertise its service name, which the service can resolve', () => {
    for (const name of nodes) {
      const node = cluster.services[name]!;
      expect(env(node, 'EVENTSTORE_NODE_IP')).toBe('0.0.0.0');
      expect(env(node, 'EVENTSTORE_REPLICATION_IP')).toBe('0.0.0.0');
      expect(env(node, 'EVENTSTORE_NODE_HOST_ADVERTISE_AS')).toBe(name);
      expect(env(node, 'EVENTSTORE_REPLICATION_HOST_ADVERTISE_AS')).toBe(name);
      // Advertising localhost to clients would send the service, inside the network, to its own loopback.
      expect(node.environment).not.toHaveProperty('EVENTSTORE_ADVERTISE_HOST_TO_CLIENT_AS');
      expect(node.healthcheck!.test.join(' ')).toContain('http://localhost:2113/health/live');
    }
  });

  it("publishes each node's 2113 on its own loopback port, and gives each node its own volume", () => {
    const ports = nodes.map((name) => cluster.services[name]!.ports!.map(mapping));
    for (const each of ports) expect(each).toEqual([['127.0.0.1', expect.stringMatching(/^\d+$/), '2113']]);
    expect(new Set(ports.map((each) => each[0]![1])).size).toBe(3);
    const volumes = nodes.map((name) => cluster.services[name]!.volumes![0]!.split(':')[0]);
    expect(new Set(volumes).size).toBe(3);
    for (const volume of volumes) expect(cluster.volumes).toHaveProperty(volume!);
  });

  it('points the service at all three nodes, preferring the leader, once all three are healthy', () => {
    // Read as the client the service uses reads it.
    const options = parseConnectionString(env(service, 'EVENTSTORE_CONNECTION_STRING'));
    expect(options.dnsDiscover).toBe(false);
    expect(options.hosts).toEqual(nodes.map((address) => ({ address, port: 2113 })));
    expect(options.tls).toBe(false);
    expect(options.nodePreference).toBe('leader');
    expect(service.depends_on).toEqual(
      Object.fromEntries(nodes.map((name) => [name, { condition: 'service_healthy' }])),
    );
  });

  it('runs the same server image and the same service settings as the single node', () => {
    for (const name of nodes)
      expect(cluster.services[name]!.image).toBe(single.services['eventstore']!.image);
    const { EVENTSTORE_CONNECTION_STRING: _ours, ...settings } = service.environment!;
    const { EVENTSTORE_CONNECTION_STRING: _theirs, ...singleSettings } =
      single.services['table-service']!.environment!;
    expect(settings).toEqual(singleSettings);
  });
});

describe('restart policies', () => {
  it('restart every long-running service unless it was stopped', () => {
    for (const compose of [single, cluster])
      for (const [name, service] of Object.entries(compose.services))
        expect([name, service.restart]).toEqual([name, 'unless-stopped']);
  });
});

interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<
    string,
    {
      strategy: { matrix: { server: { name: string; image: string }[] } };
      services: Record<
        string,
        { image: string; ports: string[]; options: string; env: Record<string, string> }
      >;
      env: Record<string, string>;
      steps: { uses?: string; run?: string; with?: Record<string, string> }[];
    }
  >;
}

describe('.github/workflows/eventstoredb.yml: the suites against real servers in hosted CI', () => {
  const workflow = load<Workflow>('.github/workflows/eventstoredb.yml');
  const job = Object.values(workflow.jobs)[0]!;

  it('runs on pushes and pull requests', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
  });

  it("runs against EventStoreDB 24.10 (docker-compose.yml's image) and the current KurrentDB, as a service container", () => {
    const images = job.strategy.matrix.server.map((server) => server.image);
    expect(images).toEqual([
      single.services['eventstore']!.image,
      'docker.kurrent.io/kurrent-latest/kurrentdb:latest',
    ]);
    const server = Object.values(job.services)[0]!;
    expect(server.image).toBe('${{ matrix.server.image }}');
    expect(server.ports).toEqual(['2113:2113']);
    expect(server.options).toMatch(/--health-cmd "curl -fsS http:\/\/localhost:2113\/health\/live/);
    expect(server.env['EVENTSTORE_INSECURE']).toBe('true');
  });

  it('installs with Node 20.20.2 and npm ci, builds, and runs test:eventstoredb against the service container', () => {
    const setup = job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(setup?.with?.['node-version']).toBe('20.20.2');
    const runs = job.steps.map((step) => step.run ?? '');
    const order = ['npm ci', 'build', 'npm run test:eventstoredb'].map((what) =>
      runs.findIndex((run) => run.includes(what)),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(runs[order[2]!]).toBe('npm run test:eventstoredb -- --server "$EVENTSTORE_CONNECTION_STRING"');
    // The build step builds what the suites' specs run (the service and the CLI), as the script does.
    const projects = /--projects=(\S+)/.exec(runs[order[1]!]!)?.[1]?.split(',') ?? [];
    expect(projects.sort()).toEqual(buildsFor(eventStoreDbSuites(ROOT)));
    expect(job.env['EVENTSTORE_CONNECTION_STRING']).toBe('esdb://localhost:2113?tls=false');
  });

  it('runs the script package.json names', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts['test:eventstoredb']).toBe('node tools/test-eventstoredb.mjs');
  });
});
