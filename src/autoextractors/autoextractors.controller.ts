import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, Query, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { Response } from 'express';
import { ApiConsumes, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { refusal } from '../common/errors/app-error';
import { UuidPipe } from '../common/validation/id.pipe';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { AutoextractorDto, AutoextractorQueryDto, AxTestResultDto, CreateAutoextractorDto, TestAutoextractorDto, UpdateAutoextractorDto } from './autoextractors.dto';
import { AutoextractorsService } from './autoextractors.service';
import { AxUploadInterceptor } from './ax-upload.interceptor';

/** `?id=a&id=b` as a list (one, several, or none). */
function idList(v: unknown): string[] {
  if (v === undefined) return [];
  const all = Array.isArray(v) ? v : [v];
  if (all.length > 1000 || all.some((x) => typeof x !== 'string')) throw refusal('INVALID_UUID', 'id');
  return all as string[];
}

/**
 * Autoextractors: the product's paths (client/urls.go: /api/autoextractors, .../test, .../upload,
 * .../engines, .../{uuid}; api/extractors.md: .../download). The literal paths come before `:id`.
 */
@ApiTags('autoextractors')
@Controller('api/autoextractors')
export class AutoextractorsController {
  constructor(private readonly ax: AutoextractorsService) {}

  @Get()
  @Auth({ capability: 'ExtractorRead' })
  @ApiOkResponse({ type: [AutoextractorDto], description: 'Own, group-shared and global autoextractors; ?admin=true (admins): all' })
  list(@CurrentAuth() auth: AuthContext, @Query() q: AutoextractorQueryDto): Promise<AutoextractorDto[]> {
    return this.ax.list(auth, q.admin);
  }

  @Get('engines')
  @Auth({ capability: 'ExtractorRead' })
  @ApiOkResponse({ type: [String], description: 'The modules a definition may name' })
  engines(): string[] {
    return this.ax.engines();
  }

  @Get('download')
  @Auth({ capability: 'ExtractorRead', cookie: true })
  @ApiQuery({ name: 'id', required: false, type: [String], description: 'UUIDs (repeat the parameter); none: every autoextractor the caller may read' })
  @ApiOkResponse({ type: String, description: "The definitions in the product's TOML format" })
  async download(@CurrentAuth() auth: AuthContext, @Query('id') id: unknown, @Res({ passthrough: true }) res: Response): Promise<string> {
    const text = await this.ax.download(auth, idList(id));
    // Set once the file is ready: a refusal stays a JSON body.
    res.setHeader('Content-Type', 'application/toml; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="autoextractors.toml"');
    return text;
  }

  @Post()
  @HttpCode(200)
  @Auth({ capability: 'ExtractorWrite' })
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiOkResponse({ type: String, description: "The new autoextractor's UUID, a JSON string (as the product answers)" })
  async create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateAutoextractorDto): Promise<string> {
    return JSON.stringify(await this.ax.create(auth, dto));
  }

  @Put()
  @Auth({ capability: 'ExtractorWrite' })
  @ApiOkResponse({ type: AutoextractorDto, description: "The product's update: the body names the autoextractor by UUID" })
  updateByBody(@CurrentAuth() auth: AuthContext, @Body() dto: UpdateAutoextractorDto): Promise<AutoextractorDto> {
    return this.ax.updateByBody(auth, dto);
  }

  @Post('test')
  @HttpCode(200)
  @Auth({ capability: 'ExtractorRead' })
  @ApiOkResponse({ type: AxTestResultDto, description: 'A definition the engine refuses is a 400 naming why' })
  test(@CurrentAuth() auth: AuthContext, @Body() dto: TestAutoextractorDto): Promise<AxTestResultDto> {
    return this.ax.test(auth, dto);
  }

  @Post('upload')
  @HttpCode(200)
  @Auth({ capability: 'ExtractorWrite', cookie: true })
  @ApiConsumes('multipart/form-data')
  @UseInterceptors(AxUploadInterceptor)
  @ApiOkResponse({ type: [AutoextractorDto], description: "The definitions created or replaced, in the file's order" })
  upload(@CurrentAuth() auth: AuthContext, @UploadedFile() file: Express.Multer.File | undefined): Promise<AutoextractorDto[]> {
    if (!file) throw refusal('AUTOEXTRACTOR_FILE_PART_REQUIRED');
    return this.ax.upload(auth, file.buffer);
  }

  @Get(':id')
  @Auth({ capability: 'ExtractorRead' })
  @ApiOkResponse({ type: AutoextractorDto })
  get(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string): Promise<AutoextractorDto> {
    return this.ax.get(auth, id);
  }

  @Put(':id')
  @Auth({ capability: 'ExtractorWrite' })
  @ApiOkResponse({ type: AutoextractorDto })
  update(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string, @Body() dto: UpdateAutoextractorDto): Promise<AutoextractorDto> {
    return this.ax.update(auth, id, dto);
  }

  @Delete(':id')
  @Auth({ capability: 'ExtractorWrite' })
  @ApiOkResponse({ description: 'null' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', UuidPipe) id: string): Promise<null> {
    await this.ax.delete(auth, id);
    return null;
  }
}
