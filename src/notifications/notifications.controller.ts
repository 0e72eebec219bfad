import { Body, Controller, Delete, Get, HttpCode, Injectable, Param, PipeTransform, Post, Put, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import {
  BroadcastNotificationDto,
  NotificationContentDto,
  NotificationDto,
  NotificationListQuery,
  NotificationSet,
  TargetedNotificationDto,
  UpdateNotificationDto,
} from './notifications.dto';
import { NotificationsService } from './notifications.service';

/** Notification IDs are positive 64-bit integers, passed on as decimal strings. */
@Injectable()
class NotificationIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!/^[1-9]\d{0,17}$/.test(value ?? '')) throw refusal('INVALID_NOTIFICATION_ID', String(value).slice(0, 40));
    return value;
  }
}

const NOTIFICATION_SET = { type: 'object', additionalProperties: { $ref: getSchemaPath(NotificationDto) } } as const;

@ApiTags('notifications')
@ApiExtraModels(NotificationDto)
@Controller('api/notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @Auth({ capability: 'NotificationRead' })
  @ApiOkResponse({ description: 'Object keyed by notification ID', schema: NOTIFICATION_SET })
  list(@CurrentAuth() auth: AuthContext, @Query() q: NotificationListQuery): Promise<NotificationSet> {
    return this.notifications.list(auth, q);
  }

  @Get('all/:id')
  @Auth({ admin: true })
  @ApiOkResponse({ description: 'Every notification newer than that ID, keyed by ID', schema: NOTIFICATION_SET })
  listAllAfter(@CurrentAuth() auth: AuthContext, @Param('id', NotificationIdPipe) id: string): Promise<NotificationSet> {
    return this.notifications.list(auth, { admin: true }, id);
  }

  @Get(':id')
  @Auth({ capability: 'NotificationRead' })
  @ApiOkResponse({ description: 'Notifications newer than that ID, keyed by ID', schema: NOTIFICATION_SET })
  listAfter(@CurrentAuth() auth: AuthContext, @Param('id', NotificationIdPipe) id: string): Promise<NotificationSet> {
    return this.notifications.list(auth, {}, id);
  }

  @Post('broadcast')
  @HttpCode(200)
  @Auth({ admin: true })
  @ApiOkResponse({ type: Number, description: 'ID of the notification' })
  broadcast(@CurrentAuth() auth: AuthContext, @Body() dto: BroadcastNotificationDto): Promise<number> {
    return this.notifications.broadcast(auth, dto).then(Number);
  }

  @Post('targeted')
  @HttpCode(200)
  @Auth({ admin: true })
  targeted(@CurrentAuth() auth: AuthContext, @Body() dto: TargetedNotificationDto): Promise<number> {
    return this.notifications.targeted(auth, dto).then(Number);
  }

  @Post('targeted/self')
  @HttpCode(200)
  @Auth({ capability: 'NotificationWrite' })
  toSelf(@CurrentAuth() auth: AuthContext, @Body() dto: NotificationContentDto): Promise<number> {
    return this.notifications.toSelf(auth, dto).then(Number);
  }

  @Put(':id')
  @Auth({ capability: 'NotificationWrite' })
  async update(@CurrentAuth() auth: AuthContext, @Param('id', NotificationIdPipe) id: string, @Body() dto: UpdateNotificationDto): Promise<null> {
    await this.notifications.update(auth, id, dto);
    return null;
  }

  @Delete(':id')
  @Auth({ capability: 'NotificationWrite' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', NotificationIdPipe) id: string): Promise<null> {
    await this.notifications.delete(auth, id);
    return null;
  }
}
