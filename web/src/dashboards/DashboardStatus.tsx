import { formatTime } from '../ui/time-format';
import { DashboardView } from './dashboard-data';

/**
 * The lines under the dashboard's header: a failed save or reload (`problem`, whatever else is
 * said), why the dashboard is read-only, and the status line: unsaved changes, the last save's
 * `note`, else when the searches ran, how often they update (`updatesEvery` seconds) and how
 * zooming works.
 */
export function DashboardStatus({
  problem,
  view,
  dirty,
  note,
  ranAt,
  updatesEvery,
  zone,
}: {
  problem?: string;
  view: DashboardView | undefined;
  dirty: boolean;
  note?: string;
  ranAt?: Date;
  updatesEvery?: number;
  zone: string;
}) {
  return (
    <>
      {problem && (
        <p className="error dashboard-alert" role="alert">
          {problem}
        </p>
      )}
      {view?.readOnly && (
        <p className="dashboard-readonly" role="note">
          {view.readOnly}
        </p>
      )}
      <p className="muted dashboard-status" role="status">
        {dirty ? 'Unsaved changes.' : note}
        {!dirty && !note && ranAt && view && view.tiles.length > 0 && (
          <>
            Ran at {formatTime(ranAt, zone).slice(11, 19)}
            {updatesEvery ? `; updates every ${updatesEvery} s` : ''}
            {view.linkZooming ? '; drag across a chart to zoom every tile' : '; drag across a chart to zoom it'}.
          </>
        )}
      </p>
    </>
  );
}
