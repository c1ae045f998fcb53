import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ApiError } from './api-error';

function describeValidation(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) =>
      m.startsWith('property ') && m.endsWith('should not exist')
        ? `unknown field '${path}'`
        : m.replace(e.property, path),
    );
    return [...own, ...describeValidation(e.children ?? [], path)];
  });
}

/** A DTO class and a check that accepts only bodies its class-validator rules accept. */
export type FastBodyChecks = ReadonlyMap<abstract new () => object, (body: unknown) => boolean>;

/**
 * The service's one validation pipe: class-validator on every DTO (unknown fields refused, 400
 * VALIDATION_FAILED with every problem named). For the DTOs of hot routes (a bet) a hand-written check runs
 * first: a body it accepts becomes the DTO at once, anything else goes through class-validator, which accepts
 * or refuses it with the usual message. So a fast check can only ever be narrower than the DTO's rules (a
 * property test holds each one to that), never change an answer.
 */
export class CoupValidationPipe extends ValidationPipe {
  constructor(private readonly fast: FastBodyChecks = new Map()) {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      forbidUnknownValues: true,
      exceptionFactory: (errors) =>
        new ApiError(
          400,
          'VALIDATION_FAILED',
          describeValidation(errors).join('; ') || 'the request body is not valid',
        ),
    });
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype as (new () => object) | undefined;
    if (metadata.type === 'body' && metatype) {
      const check = this.fast.get(metatype);
      if (check?.(value)) return Promise.resolve(Object.assign(new metatype(), value));
    }
    return super.transform(value, metadata);
  }
}
