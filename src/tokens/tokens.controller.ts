import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { UuidPipe } from '../common/validation/id.pipe';
import { CapabilityDescDto } from '../info/info.dto';
import {
  CapabilityListQueryDto,
  CreateTokenDto,
  RegenerateTokenDto,
  RevokedTokensDto,
  TokenDto,
  TokenListQueryDto,
  TokenSettingsDto,
  TokenWithSecretDto,
  UpdateTokenDto,
} from './tokens.dto';
import { TokensService } from './tokens.service';

/** API tokens (product-notes §1.3; sent in the `Service-Token` header). Literal paths come before `:id`. */
@ApiTags('tokens')
@Controller('api/tokens')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Get('settings')
  @Auth({ admin: true })
  @ApiOperation({ summary: 'Whether non-admin users may use API tokens' })
  @ApiOkResponse({ type: TokenSettingsDto })
  getSettings(): Promise<TokenSettingsDto> {
    return this.tokens.getSettings();
  }

  @Put('settings')
  @Auth({ admin: true })
  @ApiOperation({ summary: 'Turn API tokens on or off for non-admin users (their existing tokens stop or resume working)' })
  @ApiOkResponse({ type: TokenSettingsDto })
  putSettings(@Body() dto: TokenSettingsDto): Promise<TokenSettingsDto> {
    return this.tokens.putSettings(dto);
  }

  @Get('capabilities')
  @Auth({ capability: 'TokenRead' })
  @ApiOperation({
    summary: 'Capability names the caller may put on a token (every name the product defines, and ours)',
    description: 'With detail=true: one object per name, with `Grants` telling whether it reaches any API of this service today.',
  })
  @ApiOkResponse({
    schema: {
      oneOf: [
        { type: 'array', items: { type: 'string' } },
        { type: 'array', items: { $ref: getSchemaPath(CapabilityDescDto) } },
      ],
    },
  })
  @ApiExtraModels(CapabilityDescDto)
  capabilities(@CurrentAuth() auth: AuthContext, @Query() q: CapabilityListQueryDto): Promise<string[] | CapabilityDescDto[]> {
    return this.tokens.capabilities(auth, q.detail === true);
  }

  @Get()
  @Auth({ capability: 'TokenRead' })
  @ApiOperation({ summary: "Own tokens; admins with admin=true: every user's. Never includes secrets." })
  @ApiOkResponse({ type: [TokenDto] })
  list(@CurrentAuth() auth: AuthContext, @Query() q: TokenListQueryDto): Promise<TokenDto[]> {
    return this.tokens.list(auth, q.admin === true);
  }

  @Post()
  @HttpCode(200)
  @Auth({ capability: 'TokenWrite' })
  @ApiOperation({ summary: 'Create a token; the response is the only time its secret is shown' })
  @ApiOkResponse({ type: TokenWithSecretDto })
  create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateTokenDto): Promise<TokenWithSecretDto> {
    return this.tokens.create(auth, dto);
  }

  @Get(':id')
  @Auth({ capability: 'TokenRead' })
  @ApiOkResponse({ type: TokenDto })
  get(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string): Promise<TokenDto> {
    return this.tokens.get(auth, id);
  }

  @Put(':id')
  @Auth({ capability: 'TokenWrite' })
  @ApiOperation({ summary: 'Change name, description, capabilities or expiry; absent fields keep their value' })
  @ApiOkResponse({ type: TokenDto })
  update(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Body() dto: UpdateTokenDto): Promise<TokenDto> {
    return this.tokens.update(auth, id, dto);
  }

  @Patch(':id')
  @Auth({ capability: 'TokenWrite' })
  @ApiOperation({ summary: 'Refresh: a new secret with a new expiry; the old secret stops working' })
  @ApiOkResponse({ type: TokenWithSecretDto })
  regenerate(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Body() dto: RegenerateTokenDto): Promise<TokenWithSecretDto> {
    return this.tokens.regenerate(auth, id, dto);
  }

  @Delete()
  @Auth({ capability: 'TokenWrite' })
  @ApiOperation({ summary: 'Revoke every token of the caller at once' })
  @ApiOkResponse({ type: RevokedTokensDto })
  deleteAllOwn(@CurrentAuth() auth: AuthContext): Promise<RevokedTokensDto> {
    return this.tokens.deleteAllOwn(auth);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth({ capability: 'TokenWrite' })
  @ApiNoContentResponse()
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string): Promise<void> {
    await this.tokens.delete(auth, id);
  }
}
