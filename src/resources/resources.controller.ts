import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, StreamableFile, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Response } from 'express';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { UuidPipe } from '../common/validation/id.pipe';
import { contentTypeHeader } from '../storage/content-sniff';
import { attachmentDisposition } from '../storage/display-name';
import { requireUpload, UploadInterceptor } from '../storage/upload.interceptor';
import { CloneResourceDto, ContentTypeDto, ContentTypeQuery, CreateResourceDto, ResourceListQuery, ResourceMetadataDto, UpdateResourceDto } from './resources.dto';
import { RESOURCE_BLOBS, ResourcesService } from './resources.service';

const ResourceUpload = UploadInterceptor(RESOURCE_BLOBS, { maxSize: (c) => c.maxResourceSize, setting: 'MAX_RESOURCE_SIZE' });
const ADMIN_FLAG = { name: 'admin', required: false, type: Boolean, description: 'Harmless on single resources (admins reach any resource by GUID)' };

@ApiTags('resources')
@Controller('api/resources')
export class ResourcesController {
  constructor(private readonly resources: ResourcesService) {}

  @Get()
  @Auth({ capability: 'ResourceRead' })
  @ApiOkResponse({ type: [ResourceMetadataDto] })
  list(@CurrentAuth() auth: AuthContext, @Query() q: ResourceListQuery): Promise<ResourceMetadataDto[]> {
    return this.resources.list(auth, q.admin);
  }

  @Post()
  @HttpCode(200)
  @Auth({ capability: 'ResourceWrite' })
  @ApiOkResponse({ type: ResourceMetadataDto })
  create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateResourceDto): Promise<ResourceMetadataDto> {
    return this.resources.create(auth, dto);
  }

  @Get(':guid')
  @Auth({ capability: 'ResourceRead' })
  @ApiQuery(ADMIN_FLAG)
  @ApiOkResponse({ type: ResourceMetadataDto })
  get(@CurrentAuth() auth: AuthContext, @Param('guid', UuidPipe) guid: string): Promise<ResourceMetadataDto> {
    return this.resources.get(auth, guid);
  }

  @Put(':guid')
  @Auth({ capability: 'ResourceWrite' })
  @ApiQuery(ADMIN_FLAG)
  @ApiOkResponse({ type: ResourceMetadataDto })
  update(@CurrentAuth() auth: AuthContext, @Param('guid', UuidPipe) guid: string, @Body() dto: UpdateResourceDto): Promise<ResourceMetadataDto> {
    return this.resources.update(auth, guid, dto);
  }

  @Delete(':guid')
  @Auth({ capability: 'ResourceWrite' })
  @ApiQuery(ADMIN_FLAG)
  async delete(@CurrentAuth() auth: AuthContext, @Param('guid', UuidPipe) guid: string): Promise<null> {
    await this.resources.delete(auth, guid);
    return null;
  }

  @Put(':guid/raw')
  @Auth({ capability: 'ResourceWrite' })
  @UseInterceptors(ResourceUpload)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiQuery(ADMIN_FLAG)
  @ApiOkResponse({ type: ResourceMetadataDto })
  upload(@CurrentAuth() auth: AuthContext, @Param('guid', UuidPipe) guid: string, @UploadedFile() file?: Express.Multer.File): Promise<ResourceMetadataDto> {
    return this.resources.replaceContents(auth, guid, requireUpload(file));
  }

  @Get(':guid/raw')
  @Auth({ capability: 'ResourceRead' })
  @ApiQuery(ADMIN_FLAG)
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'The exact bytes, with the server-detected Content-Type' })
  async raw(@CurrentAuth() auth: AuthContext, @Param('guid', UuidPipe) guid: string, @Res({ passthrough: true }) res: Response): Promise<StreamableFile> {
    const { meta, handle } = await this.resources.openContents(auth, guid);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'private, no-cache');
    const opts = { type: contentTypeHeader(meta.contentType), disposition: attachmentDisposition(meta.name, 'resource'), length: handle ? meta.size : 0 };
    return handle ? new StreamableFile(handle.createReadStream({ start: 0 }), opts) : new StreamableFile(Buffer.alloc(0), opts);
  }

  @Get(':guid/contenttype')
  @Auth({ capability: 'ResourceRead' })
  @ApiOkResponse({ type: ContentTypeDto })
  contentType(@CurrentAuth() auth: AuthContext, @Param('guid', UuidPipe) guid: string, @Query() q: ContentTypeQuery): Promise<ContentTypeDto> {
    return this.resources.contentType(auth, guid, q.bytes);
  }

  @Post(':guid/clone')
  @HttpCode(200)
  @Auth({ capability: 'ResourceWrite' })
  @ApiQuery(ADMIN_FLAG)
  @ApiOkResponse({ type: ResourceMetadataDto })
  clone(@CurrentAuth() auth: AuthContext, @Param('guid', UuidPipe) guid: string, @Body() dto: CloneResourceDto): Promise<ResourceMetadataDto> {
    return this.resources.clone(auth, guid, dto);
  }
}
