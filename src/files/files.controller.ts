import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res, StreamableFile, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Response } from 'express';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { UuidPipe } from '../common/validation/id.pipe';
import { contentTypeHeader } from '../storage/content-sniff';
import { attachmentDisposition } from '../storage/display-name';
import { requireUpload, UploadInterceptor } from '../storage/upload.interceptor';
import { sharingCaller as fileCaller } from '../sharing/access-policy';
import { FileMetaDto, FileQuery, FileUploadFieldsDto, UserFileDto } from './files.dto';
import { FILE_BLOBS, FilesService } from './files.service';

const FileUpload = UploadInterceptor(FILE_BLOBS, { maxSize: (c) => c.maxFileSize, setting: 'MAX_FILE_SIZE' });

const UPLOAD_BODY = {
  schema: {
    type: 'object',
    required: ['file'],
    properties: {
      file: { type: 'string', format: 'binary' },
      name: { type: 'string', description: 'Simple format: display name' },
      desc: { type: 'string', description: 'Simple format: description' },
      guid: { type: 'string', format: 'uuid', description: 'Simple format: GUID (generated when absent)' },
      meta: { type: 'string', description: 'Detailed format: JSON {UID, GIDs, Global, Name, Desc, Labels}' },
    },
  },
};

@ApiTags('files')
@Controller('api/files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Get()
  @Auth({ capability: 'UserFileRead' })
  @ApiOkResponse({ type: [UserFileDto] })
  list(@CurrentAuth() auth: AuthContext, @Query() q: FileQuery): Promise<UserFileDto[]> {
    return this.files.list(fileCaller(auth, q.admin));
  }

  @Post()
  @HttpCode(200)
  @Auth({ capability: 'UserFileWrite' })
  @UseInterceptors(FileUpload)
  @ApiConsumes('multipart/form-data')
  @ApiBody(UPLOAD_BODY)
  @ApiOkResponse({ type: UserFileDto })
  create(@CurrentAuth() auth: AuthContext, @Body() fields: FileUploadFieldsDto, @UploadedFile() file?: Express.Multer.File): Promise<UserFileDto> {
    return this.files.create(auth, fields, requireUpload(file));
  }

  @Get(':id')
  @Auth({ capability: 'UserFileRead' })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'The contents of the file' })
  async contents(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Query() q: FileQuery, @Res({ passthrough: true }) res: Response): Promise<StreamableFile> {
    const { meta, handle } = await this.files.open(fileCaller(auth, q.admin), id);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'private, no-cache');
    return new StreamableFile(handle.createReadStream({ start: 0 }), {
      type: contentTypeHeader(meta.contentType),
      disposition: attachmentDisposition(meta.name, 'file'),
      length: meta.size,
    });
  }

  @Get(':id/details')
  @Auth({ capability: 'UserFileRead' })
  @ApiOkResponse({ type: UserFileDto })
  details(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Query() q: FileQuery): Promise<UserFileDto> {
    return this.files.details(fileCaller(auth, q.admin), id);
  }

  @Post(':id')
  @HttpCode(200)
  @Auth({ capability: 'UserFileWrite' })
  @UseInterceptors(FileUpload)
  @ApiConsumes('multipart/form-data')
  @ApiBody(UPLOAD_BODY)
  @ApiOkResponse({ type: UserFileDto, description: 'Replaces the contents; only the "file" part is honoured' })
  replacePost(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Query() q: FileQuery, @UploadedFile() file?: Express.Multer.File): Promise<UserFileDto> {
    return this.files.replaceContents(fileCaller(auth, q.admin), id, requireUpload(file));
  }

  @Put(':id')
  @Auth({ capability: 'UserFileWrite' })
  @UseInterceptors(FileUpload)
  @ApiConsumes('multipart/form-data')
  @ApiBody(UPLOAD_BODY)
  @ApiOkResponse({ type: UserFileDto, description: 'Replaces the contents; only the "file" part is honoured' })
  replacePut(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Query() q: FileQuery, @UploadedFile() file?: Express.Multer.File): Promise<UserFileDto> {
    return this.files.replaceContents(fileCaller(auth, q.admin), id, requireUpload(file));
  }

  @Patch(':id')
  @Auth({ capability: 'UserFileWrite' })
  @ApiOkResponse({ type: UserFileDto })
  patch(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Query() q: FileQuery, @Body() dto: FileMetaDto): Promise<UserFileDto> {
    return this.files.patch(fileCaller(auth, q.admin), id, dto);
  }

  @Delete(':id')
  @Auth({ capability: 'UserFileWrite' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Query() q: FileQuery): Promise<null> {
    await this.files.delete(fileCaller(auth, q.admin), id);
    return null;
  }
}
