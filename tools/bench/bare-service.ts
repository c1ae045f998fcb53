/**
 * The bare comparison for bench:service: NestJS 11 on the same Fastify adapter, one POST that does nothing and
 * answers { ok: true }. Started as its own process by service.bench.ts. Usage: bare-service.ts <port>
 */
import 'reflect-metadata';
import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { installLeanAsyncResourceBind } from '../../apps/table-service/src/common/async-resource-bind';

@Controller()
class BareController {
  @Post('bare')
  @HttpCode(201)
  bare() {
    return { ok: true };
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main() {
  // BENCH_BARE_LEAN_BIND=1: the bare endpoint with the service's lean AsyncResource.bind too (for comparison).
  if (process.env['BENCH_BARE_LEAN_BIND'] === '1') installLeanAsyncResourceBind();
  const app = await NestFactory.create<NestFastifyApplication>(BareModule, new FastifyAdapter(), {
    logger: false,
  });
  // The same listen backlog as the service (apps/table-service/src/main.ts).
  await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1', backlog: 4096 });
  process.stdout.write('ready\n');
}
void main();
