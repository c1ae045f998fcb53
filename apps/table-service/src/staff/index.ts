/** Staff sign-in: accounts, passwords, sign-in and sign-out, single sign-on, and the admins' account routes. */
import type { Provider } from '@nestjs/common';
import type { ScryptParams } from '@coup/auth';
import type { ServiceConfig } from '../config/config';
import { EventStoreHandle } from '../store/event-store.provider';
import { Clock } from '../tables/edge-inputs';
import { AuthController, SIGN_IN_LIMIT } from './auth.controller';
import { OidcSignIn } from './oidc';
import { StaffAccounts } from './staff-accounts';
import { StaffController } from './staff.controller';

export { StaffAccounts, firstLocalAdminDue } from './staff-accounts';
export { installStaffCatchUp } from './staff-freshness';
export { PUBLIC_API_ROUTE } from './public-route';

export const STAFF_CONTROLLERS = [AuthController, StaffController];

/** The staff accounts (folded from the raw store: staff events hold no seed), the sign-in limit, and SSO when set. */
export function staffProviders(config: ServiceConfig, scrypt?: ScryptParams): Provider[] {
  const oidc = config.staff.oidc;
  return [
    {
      provide: StaffAccounts,
      inject: [EventStoreHandle, Clock],
      useFactory: (handle: EventStoreHandle, clock: Clock) =>
        new StaffAccounts(handle.store, config, clock, scrypt),
    },
    { provide: SIGN_IN_LIMIT, useValue: config.staff.signInsPerMinutePerIp },
    ...(oidc
      ? [
          {
            provide: OidcSignIn,
            inject: [StaffAccounts],
            useFactory: (accounts: StaffAccounts) => new OidcSignIn(oidc, config.jwtSecret, accounts),
          },
        ]
      : []),
  ];
}
