import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';

/** Sessions that just ended: one (`sid`), or every one of a user but `except`. */
export interface SessionsEnded {
  uid: number;
  sid?: string;
  except?: string;
}

/**
 * Tells long-lived connections (websockets) that sessions ended (logout, lock, password change,
 * account deletion), so they close at once instead of at their next check.
 */
@Injectable()
export class SessionEvents {
  private readonly emitter = new EventEmitter();

  ended(e: SessionsEnded): void {
    this.emitter.emit('ended', e);
  }

  onEnded(listener: (e: SessionsEnded) => void): () => void {
    this.emitter.on('ended', listener);
    return () => this.emitter.off('ended', listener);
  }
}
