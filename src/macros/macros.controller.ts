import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { IdPipe } from '../common/validation/id.pipe';
import { CreateMacroDto, MacroDto, MacroQueryDto, UpdateMacroDto } from './macros.dto';
import { MacrosService } from './macros.service';

/** Search macros: the product's paths (client/urls.go: /api/macros, /api/macros/all, /api/users/{uid}/macros, /api/groups/{gid}/macros). */
@ApiTags('macros')
@Controller('api')
export class MacrosController {
  constructor(private readonly macros: MacrosService) {}

  @Get('macros')
  @Auth({ capability: 'MacroRead' })
  @ApiOkResponse({ type: [MacroDto], description: 'Own, group-shared and global macros; ?admin=true (admins): all' })
  list(@CurrentAuth() auth: AuthContext, @Query() q: MacroQueryDto): Promise<MacroDto[]> {
    return this.macros.list(auth, q.admin);
  }

  @Get('macros/all')
  @Auth({ admin: true })
  @ApiOkResponse({ type: [MacroDto] })
  all(@CurrentAuth() auth: AuthContext): Promise<MacroDto[]> {
    return this.macros.listAll(auth);
  }

  @Get('users/:id/macros')
  @Auth({ capability: 'MacroRead' })
  @ApiOkResponse({ type: [MacroDto], description: "A user's own macros (admins, or the user)" })
  ofUser(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<MacroDto[]> {
    return this.macros.listOfUser(auth, uid);
  }

  @Get('groups/:id/macros')
  @Auth({ capability: 'MacroRead' })
  @ApiOkResponse({ type: [MacroDto], description: 'Macros shared with a group (admins, or its members)' })
  ofGroup(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) gid: number): Promise<MacroDto[]> {
    return this.macros.listOfGroup(auth, gid);
  }

  @Post('macros')
  @HttpCode(200)
  @Auth({ capability: 'MacroWrite' })
  @ApiOkResponse({ type: Number, description: 'The new macro ID' })
  create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateMacroDto): Promise<number> {
    return this.macros.create(auth, dto);
  }

  @Get('macros/:id')
  @Auth({ capability: 'MacroRead' })
  @ApiOkResponse({ type: MacroDto })
  get(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) id: number): Promise<MacroDto> {
    return this.macros.get(auth, id);
  }

  @Put('macros/:id')
  @Auth({ capability: 'MacroWrite' })
  @ApiOkResponse({ type: MacroDto })
  update(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) id: number, @Body() dto: UpdateMacroDto): Promise<MacroDto> {
    return this.macros.update(auth, id, dto);
  }

  @Delete('macros/:id')
  @Auth({ capability: 'MacroWrite' })
  @ApiOkResponse({ description: 'null' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) id: number): Promise<null> {
    await this.macros.delete(auth, id);
    return null;
  }
}
