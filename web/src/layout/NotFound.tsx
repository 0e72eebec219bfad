import { Link, useRouteError } from 'react-router';

export function NotFound() {
  return (
    <section className="page-message">
      <h1>Page not found</h1>
      <p>
        There is no page here. <Link to="/search">Go to search</Link>.
      </p>
    </section>
  );
}

/** What a page that threw shows (a bug or a chunk that failed to load), never a blank screen. */
export function RouteError() {
  const err = useRouteError() as Error | undefined;
  const chunk = /dynamically imported module|Importing a module script failed/i.test(err?.message ?? '');
  return (
    <section className="page-message" role="alert">
      <h1>Something went wrong</h1>
      <p>{chunk ? 'The console was updated on the server. Reload the page to get the new version.' : (err?.message ?? 'Unknown error')}</p>
      <button type="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </section>
  );
}
