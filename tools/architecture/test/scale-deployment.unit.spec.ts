// docker-compose.yml's `scale` profile, read as YAML (issue 17): PostgreSQL read models, one projection process,
// several service instances with COUP_PROJECTIONS=off behind nginx, all on the one EventStoreDB node. The wiring:
// who folds and who does not, one store and one read-model database for all, the load balancer's upstreams and
// ports, WebSocket upgrades, health checks and start order.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..', '..');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  profiles?: string[];
  restart?: string;
  environment?: Record<string, string | number>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const env = (service: Service, key: string) => String(service.environment?.[key] ?? '');
const scale = Object.keys(services).filter((name) => services[name]!.profiles?.includes('scale'));
const instances = scale.filter((name) => /^coup-\d+$/.test(name));
const projections = services['projections']!;
const postgres = services['postgres']!;
const lb = services['lb']!;
const healthy = (...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { condition: 'service_healthy' }]));

/** The nginx configuration lb mounts, and where. */
function nginx(): { text: string; mountedAt: string } {
  const [host, container] = lb.volumes![0]!.split(':');
  const file = join(ROOT, host!);
  expect(existsSync(file)).toBe(true);
  return { text: readFileSync(file, 'utf8'), mountedAt: container! };
}

describe("docker-compose.yml's scale profile", () => {
  it('holds PostgreSQL, one projection process, three instances and the load balancer, and only these', () => {
    expect(scale.sort()).toEqual(['coup-1', 'coup-2', 'coup-3', 'lb', 'postgres', 'projections']);
    expect(instances).toHaveLength(3);
  });

  it('runs the instances and the projection process from the service image, restarted unless stopped', () => {
    for (const name of [...instances, 'projections']) {
      expect([name, services[name]!.build, services[name]!.image]).toEqual([name, '.', 'coup-table-service']);
      expect(services[name]!.restart).toBe('unless-stopped');
    }
    // node, its options (the service's V8 flags, source maps), then the CLI's command
    const [node, ...args] = projections.command!;
    const script = args.findIndex((a) => !a.startsWith('--'));
    expect([node, ...args.slice(script, script + 3)]).toEqual([
      'node',
      'apps/cli/dist/main.js',
      'projections',
      'run',
    ]);
  });

  it('folds only in the projection process: every instance has COUP_PROJECTIONS=off', () => {
    for (const name of instances)
      expect([name, env(services[name]!, 'COUP_PROJECTIONS')]).toEqual([name, 'off']);
    expect(projections.environment).not.toHaveProperty('COUP_PROJECTIONS');
  });

  it('gives every instance and the projection process one EventStoreDB and one read-model database', () => {
    for (const key of ['COUP_EVENT_STORE', 'EVENTSTORE_CONNECTION_STRING', 'COUP_READ_MODELS']) {
      const values = new Set([...instances, 'projections'].map((name) => env(services[name]!, key)));
      expect([key, values.size]).toEqual([key, 1]);
    }
    expect(env(projections, 'COUP_EVENT_STORE')).toBe('eventstoredb');
    expect(env(projections, 'EVENTSTORE_CONNECTION_STRING')).toBe('esdb://eventstore:2113?tls=false');
    expect(services['eventstore']!.profiles).toBeUndefined();
  });

  it('points the read models at the postgres service, with its user, password and database', () => {
    const url = new URL(env(projections, 'COUP_READ_MODELS'));
    expect(url.protocol).toBe('postgres:');
    expect([url.hostname, url.port, url.pathname]).toEqual([
      'postgres',
      '5432',
      `/${env(postgres, 'POSTGRES_DB')}`,
    ]);
    expect(url.username).toBe(env(postgres, 'POSTGRES_USER'));
    expect(decodeURIComponent(url.password)).toBe(env(postgres, 'POSTGRES_PASSWORD'));
    expect(postgres.image).toMatch(/^postgres:\d+/);
    expect(postgres.ports).toEqual(['127.0.0.1:${COUP_PG_HOST_PORT:-5432}:5432']);
    expect(compose.volumes).toHaveProperty(postgres.volumes![0]!.split(':')[0]!);
  });

  it('starts the instances and the projection process once the store and PostgreSQL are healthy', () => {
    expect(postgres.healthcheck!.test.join(' ')).toContain('pg_isready');
    for (const name of [...instances, 'projections'])
      expect([name, services[name]!.depends_on]).toEqual([name, healthy('eventstore', 'postgres')]);
  });

  it("checks each instance's /health on its port, and the projection process's on the health port it opens", () => {
    for (const name of instances) {
      const service = services[name]!;
      expect(env(service, 'HOST')).toBe('0.0.0.0');
      expect(service.healthcheck!.test.join(' ')).toContain(
        `http://127.0.0.1:${env(service, 'PORT')}/health`,
      );
      expect(service.ports).toBeUndefined(); // reached through the load balancer only
    }
    const port = projections.command![projections.command!.indexOf('--health-port') + 1];
    expect(projections.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${port}/health`);
  });

  it("balances over exactly the instances' ports, passing WebSocket upgrades, on the port it publishes", () => {
    const { text, mountedAt } = nginx();
    expect(lb.image).toMatch(/^nginx:/);
    expect(mountedAt).toBe('/etc/nginx/conf.d/default.conf');
    const upstreams = [...text.matchAll(/^\s*server\s+([\w.-]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(upstreams).toEqual(instances.map((name) => `${name}:${env(services[name]!, 'PORT')}`));
    const listen = /^\s*listen\s+(\d+);/m.exec(text)?.[1];
    expect(lb.ports).toEqual([`\${COUP_SCALE_PORT:-8080}:${listen}`]);
    expect(text).toMatch(/proxy_set_header\s+Upgrade\s+\$http_upgrade;/);
    expect(text).toMatch(/proxy_set_header\s+Connection\s+\$connection_upgrade;/);
    expect(text).toMatch(/proxy_http_version\s+1\.1;/);
    expect(text).toMatch(/proxy_set_header\s+X-Forwarded-For\s+\$proxy_add_x_forwarded_for;/);
    for (const name of instances) expect(env(services[name]!, 'COUP_TRUST_PROXY')).toBe('1');
    expect(lb.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${listen}/health`);
  });

  it('logs requests without their query strings (the live push carries its token in /ws?token=)', () => {
    const { text } = nginx();
    const formats = new Map(
      [...text.matchAll(/^\s*log_format\s+(\w+)\s+([^;]+);/gm)].map((m) => [m[1]!, m[2]!] as const),
    );
    const logs = [...text.matchAll(/^\s*access_log\s+([^;]+);/gm)].map((m) => m[1]!.trim().split(/\s+/));
    expect(logs.length).toBeGreaterThan(0);
    for (const [, format] of logs) {
      const fields = formats.get(format ?? 'combined') ?? '';
      expect(fields).toContain('$uri');
      expect(fields).not.toMatch(/\$(request|request_uri|args|query_string|arg_\w+)\b/);
    }
  });

  it('starts the load balancer after the instances and the projection process are healthy, so `up lb` starts all', () => {
    expect(lb.depends_on).toEqual(healthy(...instances, 'projections'));
  });
});
