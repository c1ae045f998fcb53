import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, staff } from '@coup/auth';
import { REASON_TEXT } from '@coup/table';
import { REASON_MESSAGE } from '../tables/dto';

const ROLE_LIST = staff.STAFF_ROLES;
const USERNAME_MESSAGE =
  '$property must be 1 to 64 of a-z 0-9 . _ -, starting with a letter (lower case; not online-, nor a system actor: cli, first-start, sso, betting-timer)';

export class SignInDto {
  @ApiProperty({ example: 'pit.boss', description: 'The user name (compared in lower case)' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  username!: string;

  @ApiProperty({ example: 'not the password', description: `1 to ${PASSWORD_MAX_LENGTH} characters` })
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;

  @ApiPropertyOptional({
    enum: ROLE_LIST,
    description: "The role to act in (one the account holds); default: the account's first role",
  })
  @IsOptional()
  @IsIn(ROLE_LIST)
  role?: staff.StaffRole;
}

class RolesField {
  @ApiProperty({
    enum: ROLE_LIST,
    isArray: true,
    example: ['dealer', 'supervisor'],
    description: 'One to five staff roles, each once; the first is the default at sign-in',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ROLE_LIST.length)
  @ArrayUnique()
  @IsIn(ROLE_LIST, { each: true })
  roles!: staff.StaffRole[];
}

const TABLES_DESCRIPTION =
  'The tables this account may run as a dealer or supervisor (its tokens in those roles carry them); [] or absent: every table';

export class CreateStaffDto extends RolesField {
  @ApiProperty({
    example: 'dealer.ann',
    description: 'A new user name: 1 to 64 of a-z 0-9 . _ -, a letter first',
  })
  @IsString()
  @Matches(staff.USERNAME_PATTERN, { message: USERNAME_MESSAGE })
  username!: string;

  @ApiProperty({
    example: 'correct horse battery staple',
    description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
  })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;

  @ApiPropertyOptional({ example: ['T1'], isArray: true, type: String, description: TABLES_DESCRIPTION })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @ArrayUnique()
  @Matches(staff.TABLE_ID_PATTERN, { each: true, message: 'each of $property must be a table id' })
  tables?: string[];
}

export class StaffRolesDto extends RolesField {}

export class StaffTablesDto {
  @ApiProperty({ example: ['T1', 'T2'], isArray: true, type: String, description: TABLES_DESCRIPTION })
  @IsArray()
  @ArrayMaxSize(1000)
  @ArrayUnique()
  @Matches(staff.TABLE_ID_PATTERN, { each: true, message: 'each of $property must be a table id' })
  tables!: string[];
}

export class DisableStaffDto {
  @ApiProperty({
    example: 'left the casino',
    description:
      '3 to 500 characters, one line of visible text (no control, bidi or zero-width characters), recorded',
  })
  @IsString()
  @MinLength(3)
  @MaxLength(500)
  @Matches(REASON_TEXT, { message: REASON_MESSAGE })
  reason!: string;
}

export class StaffPasswordDto {
  @ApiProperty({
    example: 'another horse battery staple',
    description: `The new password: ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
  })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;
}
