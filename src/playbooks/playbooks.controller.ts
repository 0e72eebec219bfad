import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Response } from 'express';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { UuidPipe } from '../common/validation/id.pipe';
import { CreatePlaybookDto, PlaybookDto, PlaybookQueryDto, UpdatePlaybookDto } from './playbooks.dto';
import { PlaybooksService } from './playbooks.service';

/** Playbooks: the product's paths (client/urls.go: /api/playbooks, /api/playbooks/{UUID or GUID}). */
@ApiTags('playbooks')
@Controller('api/playbooks')
export class PlaybooksController {
  constructor(private readonly playbooks: PlaybooksService) {}

  @Get()
  @Auth({ capability: 'PlaybookRead' })
  @ApiOkResponse({ type: [PlaybookDto], description: 'Own, group-shared and global playbooks without their Body; ?admin=true (admins): all' })
  list(@CurrentAuth() auth: AuthContext, @Query() q: PlaybookQueryDto): Promise<PlaybookDto[]> {
    return this.playbooks.list(auth, q.admin);
  }

  @Post()
  @HttpCode(200)
  @Auth({ capability: 'PlaybookWrite' })
  @ApiOkResponse({ type: String, description: 'The new playbook UUID, a JSON string (as the product answers)' })
  async create(@CurrentAuth() auth: AuthContext, @Body() dto: CreatePlaybookDto, @Res({ passthrough: true }) res: Response): Promise<string> {
    const uuid = await this.playbooks.create(auth, dto);
    res.type('application/json');
    return JSON.stringify(uuid);
  }

  @Get(':id')
  @Auth({ capability: 'PlaybookRead' })
  @ApiOkResponse({ type: PlaybookDto, description: 'By UUID or GUID, with its Body' })
  get(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string): Promise<PlaybookDto> {
    return this.playbooks.get(auth, id);
  }

  @Put(':id')
  @Auth({ capability: 'PlaybookWrite' })
  @ApiOkResponse({ type: PlaybookDto })
  update(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Body() dto: UpdatePlaybookDto): Promise<PlaybookDto> {
    return this.playbooks.update(auth, id, dto);
  }

  @Delete(':id')
  @Auth({ capability: 'PlaybookWrite' })
  @ApiOkResponse({ description: 'null' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string): Promise<null> {
    await this.playbooks.delete(auth, id);
    return null;
  }
}
