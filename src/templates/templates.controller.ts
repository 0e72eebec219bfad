import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { UuidPipe } from '../common/validation/id.pipe';
import {
  CreateTemplateDto,
  FilledTemplateDto,
  FillTemplateDto,
  TemplateDetailsDto,
  TemplateDetailsUpdateDto,
  TemplateDto,
  TemplateQueryDto,
  UpdateTemplateDto,
} from './templates.dto';
import { TemplatesService } from './templates.service';

/**
 * Search templates: the product's paths (client/urls.go: /api/templates, /api/templates/{id},
 * /api/templates/{id}/details). `{id}` is the ThingUUID or the GUID. `POST .../fill` is this
 * service's own: the query with the variables filled in, which the console then launches.
 */
@ApiTags('templates')
@Controller('api/templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  @Auth({ capability: 'TemplateRead' })
  @ApiOkResponse({ type: [TemplateDto], description: 'Own, group-shared and global templates; ?admin=true (admins): all' })
  list(@CurrentAuth() auth: AuthContext, @Query() q: TemplateQueryDto): Promise<TemplateDto[]> {
    return this.templates.list(auth, q.admin);
  }

  @Post()
  @HttpCode(200)
  @Auth({ capability: 'TemplateWrite' })
  @ApiOkResponse({ type: TemplateDto, description: 'The new template' })
  create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateTemplateDto): Promise<TemplateDto> {
    return this.templates.create(auth, dto);
  }

  @Get(':id')
  @Auth({ capability: 'TemplateRead' })
  @ApiOkResponse({ type: TemplateDto })
  get(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string): Promise<TemplateDto> {
    return this.templates.get(auth, id);
  }

  @Put(':id')
  @Auth({ capability: 'TemplateWrite' })
  @ApiOkResponse({ type: TemplateDto })
  update(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Body() dto: UpdateTemplateDto): Promise<TemplateDto> {
    return this.templates.update(auth, id, dto);
  }

  @Delete(':id')
  @Auth({ capability: 'TemplateWrite' })
  @ApiOkResponse({ description: 'null' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string): Promise<null> {
    await this.templates.delete(auth, id);
    return null;
  }

  @Get(':id/details')
  @Auth({ capability: 'TemplateRead' })
  @ApiOkResponse({ type: TemplateDetailsDto })
  details(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string): Promise<TemplateDetailsDto> {
    return this.templates.details(auth, id);
  }

  @Put(':id/details')
  @Auth({ capability: 'TemplateWrite' })
  @ApiOkResponse({ type: TemplateDetailsDto })
  updateDetails(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Body() dto: TemplateDetailsUpdateDto): Promise<TemplateDetailsDto> {
    return this.templates.updateDetails(auth, id, dto);
  }

  @Post(':id/fill')
  @HttpCode(200)
  @Auth({ capability: 'TemplateRead' })
  @ApiOkResponse({ type: FilledTemplateDto, description: 'The query with the variables filled in; launch it as any query' })
  fill(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Body() dto: FillTemplateDto): Promise<FilledTemplateDto> {
    return this.templates.fill(auth, id, dto.Values);
  }
}
