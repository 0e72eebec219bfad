import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { UuidPipe } from '../common/validation/id.pipe';
import { CreatePivotDto, PivotDto, PivotQueryDto, UpdatePivotDto } from './pivots.dto';
import { PivotsService } from './pivots.service';

/** Actionables: the product's paths (client/urls.go: /api/pivots, /api/pivots/{guid}; admins: ?admin=true with a ThingUUID). */
@ApiTags('pivots')
@Controller('api/pivots')
export class PivotsController {
  constructor(private readonly pivots: PivotsService) {}

  @Get()
  @Auth({ capability: 'PivotRead' })
  @ApiOkResponse({ type: [PivotDto], description: 'Own, group-shared and global actionables; ?admin=true (admins): all' })
  list(@CurrentAuth() auth: AuthContext, @Query() q: PivotQueryDto): Promise<PivotDto[]> {
    return this.pivots.list(auth, q.admin);
  }

  @Post()
  @HttpCode(200)
  @Auth({ capability: 'PivotWrite' })
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiOkResponse({ type: String, description: 'The new actionable GUID, a JSON string (as the product answers)' })
  async create(@CurrentAuth() auth: AuthContext, @Body() dto: CreatePivotDto): Promise<string> {
    // Nest sends a returned string as it is: written out as JSON, as the product's client decodes it.
    return JSON.stringify(await this.pivots.create(auth, dto));
  }

  @Get(':id')
  @Auth({ capability: 'PivotRead' })
  @ApiOkResponse({ type: PivotDto })
  get(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Query() q: PivotQueryDto): Promise<PivotDto> {
    return this.pivots.get(auth, id, q.admin);
  }

  @Put(':id')
  @Auth({ capability: 'PivotWrite' })
  @ApiOkResponse({ type: PivotDto })
  update(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Query() q: PivotQueryDto, @Body() dto: UpdatePivotDto): Promise<PivotDto> {
    return this.pivots.update(auth, id, dto, q.admin);
  }

  @Delete(':id')
  @Auth({ capability: 'PivotWrite' })
  @ApiOkResponse({ description: 'null' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Query() q: PivotQueryDto): Promise<null> {
    await this.pivots.delete(auth, id, q.admin);
    return null;
  }
}
