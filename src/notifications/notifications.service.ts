import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { GroupsService } from '../groups/groups.service';
import { UsersService } from '../users/users.service';
import { NotificationEntity } from './notification.entity';
import { notificationAccess } from './notifications.access';
import {
  BroadcastNotificationDto,
  NotificationContentDto,
  NotificationListQuery,
  NotificationSet,
  TargetedNotificationDto,
  toNotificationSet,
  UpdateNotificationDto,
} from './notifications.dto';
import { NotificationsRepository } from './notifications.repository';

const HOUR = 3600_000;
const DEFAULT_TTL = 12 * HOUR;
const MAX_SELF_TTL = 24 * HOUR;
const SWEEP_EVERY_MS = 60_000;

type Target = Pick<NotificationEntity, 'uid' | 'gid' | 'broadcast'>;

/**
 * Notifications (product-notes §3.1): sent by admins to a user, a group or everyone, or by a
 * user to themselves. Re-sending the same Type to the same target updates the existing one.
 */
@Injectable()
export class NotificationsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(NotificationsService.name);
  private sweeper?: NodeJS.Timeout;
  /** Origin of this web server's notifications. */
  private readonly origin = randomUUID();

  constructor(
    private readonly repo: NotificationsRepository,
    private readonly users: UsersService,
    private readonly groups: GroupsService,
  ) {}

  onModuleInit(): void {
    this.sweeper = setInterval(() => {
      this.repo.deleteExpired().catch((err) => this.logger.warn({ err }, 'expired notification sweep failed'));
    }, SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  async list(auth: AuthContext, q: NotificationListQuery, afterId?: string): Promise<NotificationSet> {
    const filter = { afterTime: q.after, afterId };
    const rows = q.admin && auth.isAdmin ? await this.repo.listAll(filter) : await this.repo.listVisible(auth.uid, auth.gids, filter);
    return toNotificationSet(rows);
  }

  broadcast(auth: AuthContext, dto: BroadcastNotificationDto): Promise<string> {
    return this.send(auth, { uid: null, gid: null, broadcast: true }, dto, this.expiry(dto.Expires, false));
  }

  async targeted(auth: AuthContext, dto: TargetedNotificationDto): Promise<string> {
    if (dto.UID === undefined && dto.GID === undefined) throw refusal('NOTIFICATION_TARGET_REQUIRED');
    if (dto.UID !== undefined && !(await this.users.exists(dto.UID))) throw refusal('USER_NOT_FOUND');
    if (dto.GID !== undefined) await this.groups.requireExists(dto.GID);
    return this.send(auth, { uid: dto.UID ?? null, gid: dto.GID ?? null, broadcast: false }, dto, this.expiry(dto.Expires, false));
  }

  /** Only Type, Msg, Expires and Link are honoured; Expires in the past or beyond 24 h becomes 12 h. */
  toSelf(auth: AuthContext, dto: NotificationContentDto): Promise<string> {
    const content = { Msg: dto.Msg, Type: dto.Type, Link: dto.Link };
    return this.send(auth, { uid: auth.uid, gid: null, broadcast: false }, content, this.expiry(dto.Expires, true));
  }

  async update(auth: AuthContext, id: string, dto: UpdateNotificationDto): Promise<void> {
    const n = await this.visible(auth, id);
    if (!notificationAccess.canUpdate(auth, n)) throw refusal('NOTIFICATION_UPDATE_FORBIDDEN');
    await this.repo.update(id, {
      ...(dto.Msg !== undefined && { msg: dto.Msg }),
      ...(dto.Type !== undefined && { type: String(dto.Type) }),
      ...(dto.Level !== undefined && { level: dto.Level }),
      ...(dto.Link !== undefined && { link: dto.Link }),
      ...(dto.Expires !== undefined && { expires: dto.Expires }),
      ...(dto.IgnoreUntil !== undefined && { ignoreUntil: dto.IgnoreUntil }),
    });
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const n = await this.visible(auth, id);
    if (!notificationAccess.canDelete(auth, n)) throw refusal('NOTIFICATION_DELETE_FORBIDDEN');
    await this.repo.delete(id);
  }

  private async visible(auth: AuthContext, id: string): Promise<NotificationEntity> {
    const n = await this.repo.findById(id);
    if (!n || !notificationAccess.canRead(auth, n)) throw refusal('NOTIFICATION_NOT_FOUND');
    return n;
  }

  private expiry(requested: Date | undefined, self: boolean): Date {
    const now = Date.now();
    if (!requested || requested.getTime() <= now || (self && requested.getTime() - now > MAX_SELF_TTL)) return new Date(now + DEFAULT_TTL);
    return requested;
  }

  private async send(auth: AuthContext, target: Target, dto: Partial<BroadcastNotificationDto>, expires: Date): Promise<string> {
    const type = String(dto.Type ?? 0);
    const content = { msg: dto.Msg ?? '', level: dto.Level ?? '', link: dto.Link ?? '', ignoreUntil: dto.IgnoreUntil ?? null, expires, sent: new Date() };
    if (type !== '0') {
      const same = await this.repo.findSameType({ ...target, sender: auth.uid, type });
      if (same) {
        await this.repo.update(same.id, content);
        return same.id;
      }
    }
    return this.repo.insert({ ...target, ...content, sender: auth.uid, type, origin: this.origin });
  }
}
