import { AuthContext } from '../identity/auth.types';
import { NotificationEntity } from './notification.entity';

/** Who may do what with a notification: the one place these rules live. */
export const notificationAccess = {
  /** Their own, their groups', and broadcasts; admins everything. */
  canRead: (auth: AuthContext, n: NotificationEntity): boolean => auth.isAdmin || n.broadcast || n.uid === auth.uid || (n.gid !== null && auth.gids.includes(n.gid)),
  /** Only the addressed user (UID match) changes a notification (product-notes §3.1). */
  canUpdate: (auth: AuthContext, n: NotificationEntity): boolean => n.uid === auth.uid,
  /** The addressed user, or an admin. */
  canDelete: (auth: AuthContext, n: NotificationEntity): boolean => auth.isAdmin || n.uid === auth.uid,
};
