/**
 * Where a launch comes from, read from the product's `LaunchInfo` (`method` manual, directquery,
 * flow, script, scheduledSearch or dashboard; `reference`), and what that changes (issue 32,
 * item 2): opening a dashboard runs each tile's query as the viewer, with the viewer's rights.
 */
import { Injectable } from '@nestjs/common';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { parseDashboardRef } from '../dashboards/dashboard-ref.pipe';
import { DashboardsService } from '../dashboards/dashboards.service';
import { SideEffect } from '../query/side-effects';

export interface LaunchOrigin {
  /** A dashboard's search: private to the person running it, whoever wrote the dashboard. */
  privateToCaller: boolean;
  /** The person running it wrote it: its side effects need no confirmation. */
  authored: boolean;
}

const BY_HAND: LaunchOrigin = { privateToCaller: false, authored: true };

@Injectable()
export class LaunchOrigins {
  constructor(private readonly dashboards: DashboardsService) {}

  /**
   * A launch with `LaunchInfo.method` "dashboard" runs a dashboard's query: it is never shared
   * (not even with the person's default search group, where the dashboard's author could read
   * what it found with the viewer's rights), and it was written by the person only when they own
   * the dashboard its `reference` (ID or GUID) names; an unknown or unreadable reference counts as
   * someone else's. Anything else was typed (or sent) by the caller.
   */
  async of(auth: AuthContext, launchInfo: Record<string, unknown> | undefined): Promise<LaunchOrigin> {
    if (launchInfo?.method !== 'dashboard') return BY_HAND;
    return { privateToCaller: true, authored: await this.ownsDashboard(auth, launchInfo.reference) };
  }

  private async ownsDashboard(auth: AuthContext, reference: unknown): Promise<boolean> {
    try {
      const ref = parseDashboardRef(String(reference ?? ''), true);
      return (await this.dashboards.get(auth, ref)).UID === auth.uid;
    } catch {
      return false;
    }
  }
}

/**
 * A query the person did not write may not change anything silently: 403 naming what it would do,
 * unless they confirmed it (`ConfirmSideEffects: true`, which the console sends after asking).
 */
export function requireConsentToSideEffects(origin: LaunchOrigin, effects: SideEffect[], confirmed: boolean | undefined): void {
  if (origin.authored || confirmed === true || effects.length === 0) return;
  const what = effects.map((e) => `${e.Module} ${e.Effect}`).join('; ');
  throw refusal('SIDE_EFFECTS_NOT_CONFIRMED', what);
}
