import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class LoginDto {
  @ApiProperty({ description: 'Username' })
  @IsString()
  @MaxLength(128)
  User: string;

  @ApiProperty({ description: 'Password' })
  @IsString()
  @MaxLength(1024)
  Pass: string;
}

export class LoginResponseDto {
  @ApiProperty()
  LoginStatus: boolean;

  @ApiPropertyOptional()
  JWT?: string;

  @ApiPropertyOptional()
  Reason?: string;

  @ApiPropertyOptional({ description: 'Same as Reason, so every 4xx body carries Error' })
  Error?: string;

  @ApiPropertyOptional({ description: 'On failure, the refusal code: LOGIN_FAILED or LOGIN_ACCOUNT_LOCKED' })
  Code?: string;
}
