import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { UuidPipe } from '../common/validation/id.pipe';
import { CreateLibraryEntryDto, LibraryEntryDto, LibraryQueryDto, UpdateLibraryEntryDto } from './library.dto';
import { LibraryService } from './library.service';

/** `{id}` is a ThingUUID or a GUID (contract: Search library rule 2). */
@ApiTags('library')
@Controller('api/library')
export class LibraryController {
  constructor(private readonly library: LibraryService) {}

  @Get()
  @Auth({ capability: 'LibraryRead' })
  @ApiOkResponse({ type: [LibraryEntryDto] })
  list(@CurrentAuth() auth: AuthContext, @Query() q: LibraryQueryDto): Promise<LibraryEntryDto[]> {
    return this.library.list(auth, q.admin);
  }

  @Post()
  @HttpCode(200)
  @Auth({ capability: 'LibraryWrite' })
  @ApiOkResponse({ type: LibraryEntryDto })
  create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateLibraryEntryDto): Promise<LibraryEntryDto> {
    return this.library.create(auth, dto);
  }

  @Get(':id')
  @Auth({ capability: 'LibraryRead' })
  @ApiOkResponse({ type: LibraryEntryDto })
  get(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Query() q: LibraryQueryDto): Promise<LibraryEntryDto> {
    return this.library.get(auth, id, q.admin);
  }

  @Put(':id')
  @Auth({ capability: 'LibraryWrite' })
  @ApiOkResponse({ type: LibraryEntryDto })
  update(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Query() q: LibraryQueryDto, @Body() dto: UpdateLibraryEntryDto): Promise<LibraryEntryDto> {
    return this.library.update(auth, id, dto, q.admin);
  }

  @Delete(':id')
  @Auth({ capability: 'LibraryWrite' })
  @ApiOkResponse({ description: 'null' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Query() q: LibraryQueryDto): Promise<null> {
    await this.library.delete(auth, id, q.admin);
    return null;
  }
}
