import { Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { staff } from '@coup/auth';
import { ApiError } from '../common/api-error';
import { CurrentPrincipal, Roles } from '../common/auth';
import { IdempotencyKey } from '../common/idempotency-key';
import type { Caller } from '../common/request-context';
import { ValidBody } from '../tables/dto';
import { IDEMPOTENCY_KEY_HEADER } from '../tables/idempotency';
import { idempotencyKey } from '../tables/table-commands';
import { ApiRefusals } from '../ops/openapi-errors';
import {
  CreateStaffDto,
  DisableStaffDto,
  StaffPasswordDto,
  StaffRolesDto,
  StaffTablesDto,
} from './staff.dto';
import { StaffAccounts, type AccountChange, type AccountView } from './staff-accounts';

/** A user name in a path: a local account's or a single-sign-on identity's (400 INVALID_PARAMETER otherwise). */
function username(value: string): string {
  if (!staff.USERNAME_PATTERN.test(value) && !staff.SSO_USERNAME_PATTERN.test(value))
    throw new ApiError(400, 'INVALID_PARAMETER', 'username must be a staff user name', { field: 'username' });
  return value;
}

const origin = (p: Caller) => (p.correlationId ? { correlationId: p.correlationId } : {});
/** [] means every table (null in the decider). */
const tablesOf = (tables: readonly string[] | undefined) =>
  tables && tables.length > 0 ? [...tables] : null;

@ApiTags('staff')
@ApiBearerAuth()
@ApiHeader(IDEMPOTENCY_KEY_HEADER)
@Controller('api/staff')
export class StaffController {
  constructor(private readonly accounts: StaffAccounts) {}

  /**
   * Makes an admin's change, under the request's Idempotency-Key when it has one: the key stands for the caller and
   * `request`, what it sent (the command's fields, with the password rather than its salted hash).
   */
  private async change(
    change: AccountChange,
    p: Caller,
    key: string | undefined,
    request: Readonly<Record<string, unknown>> = change,
  ): Promise<AccountView> {
    const checked = idempotencyKey(key);
    const keyed =
      checked === undefined ? undefined : this.accounts.keys.keyOf(checked, change.type, p, request);
    return this.accounts.change(change, p.id, origin(p), keyed);
  }

  @Get()
  @Roles('admin')
  @ApiOperation({ summary: 'The staff accounts (never their passwords)' })
  list(): Promise<AccountView[]> {
    return this.accounts.list();
  }

  @Post()
  @Roles('admin')
  @ApiOperation({
    summary: 'Make a staff account with a password, its roles and (for dealers and supervisors) its tables',
  })
  @ApiRefusals('VALIDATION_FAILED', 'ACCOUNT_EXISTS', 'INVALID_ROLES', 'INVALID_TABLES')
  async create(
    @ValidBody() body: CreateStaffDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ): Promise<AccountView> {
    const { username, roles, password } = body;
    const tables = tablesOf(body.tables);
    return this.change(
      { type: 'CreateAccount', username, roles, tables, passwordHash: await this.accounts.hash(password) },
      p,
      key,
      { username, roles, tables, password },
    );
  }

  @Get(':username')
  @Roles('admin')
  @ApiOperation({ summary: 'One staff account' })
  @ApiRefusals('INVALID_PARAMETER', 'UNKNOWN_ACCOUNT')
  get(@Param('username') name: string): Promise<AccountView> {
    return this.accounts.get(username(name));
  }

  @Put(':username/roles')
  @Roles('admin')
  @ApiOperation({
    summary:
      "Change an account's roles (its earlier tokens end); the last enabled admin keeps the admin role",
  })
  @ApiRefusals('VALIDATION_FAILED', 'INVALID_PARAMETER', 'UNKNOWN_ACCOUNT', 'LAST_ADMIN')
  roles(
    @Param('username') name: string,
    @ValidBody() body: StaffRolesDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ): Promise<AccountView> {
    return this.change({ type: 'ChangeRoles', username: username(name), roles: body.roles }, p, key);
  }

  @Put(':username/tables')
  @Roles('admin')
  @ApiOperation({ summary: 'Change the tables an account may run ([]: every table); its earlier tokens end' })
  @ApiRefusals('VALIDATION_FAILED', 'INVALID_PARAMETER', 'UNKNOWN_ACCOUNT')
  tables(
    @Param('username') name: string,
    @ValidBody() body: StaffTablesDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ): Promise<AccountView> {
    return this.change(
      { type: 'ChangeTables', username: username(name), tables: tablesOf(body.tables) },
      p,
      key,
    );
  }

  @Post(':username/disable')
  @HttpCode(200)
  @Roles('admin')
  @ApiOperation({
    summary: 'Disable an account, with a reason: it cannot sign in and its tokens stop working',
  })
  @ApiRefusals('VALIDATION_FAILED', 'INVALID_PARAMETER', 'UNKNOWN_ACCOUNT', 'LAST_ADMIN', 'INVALID_REASON')
  disable(
    @Param('username') name: string,
    @ValidBody() body: DisableStaffDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ): Promise<AccountView> {
    return this.change({ type: 'DisableAccount', username: username(name), reason: body.reason }, p, key);
  }

  @Post(':username/enable')
  @HttpCode(200)
  @Roles('admin')
  @ApiOperation({ summary: 'Enable a disabled account' })
  @ApiRefusals('INVALID_PARAMETER', 'UNKNOWN_ACCOUNT')
  enable(
    @Param('username') name: string,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ): Promise<AccountView> {
    return this.change({ type: 'EnableAccount', username: username(name) }, p, key);
  }

  @Post(':username/password')
  @HttpCode(200)
  @Roles('admin')
  @ApiOperation({ summary: "Reset an account's password: lifts a lock, ends its earlier tokens" })
  @ApiRefusals('VALIDATION_FAILED', 'INVALID_PARAMETER', 'UNKNOWN_ACCOUNT', 'NOT_A_PASSWORD_ACCOUNT')
  async password(
    @Param('username') name: string,
    @ValidBody() body: StaffPasswordDto,
    @CurrentPrincipal() p: Caller,
    @IdempotencyKey() key?: string,
  ): Promise<AccountView> {
    const user = username(name);
    const { password } = body;
    return this.change(
      { type: 'ResetPassword', username: user, passwordHash: await this.accounts.hash(password) },
      p,
      key,
      { username: user, password },
    );
  }
}
