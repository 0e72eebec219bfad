import { MigrationInterface, QueryRunner } from 'typeorm';

/** Saved persistent searches (metadata; results live under DATA_DIR/searches/saved) and search history. */
export class SearchCtrl1795900800000 implements MigrationInterface {
  name = 'SearchCtrl1795900800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE saved_search (
        id bigint CONSTRAINT saved_search_pkey PRIMARY KEY,
        uid integer NOT NULL CONSTRAINT saved_search_uid_fkey REFERENCES app_user (uid) ON DELETE CASCADE,
        gids integer[] NOT NULL DEFAULT '{}',
        global boolean NOT NULL DEFAULT false,
        user_query text NOT NULL,
        effective_query text NOT NULL,
        start_range timestamptz NOT NULL,
        end_range timestamptz NOT NULL,
        started timestamptz NOT NULL,
        finished timestamptz NOT NULL,
        render_module varchar(64) NOT NULL,
        render_cmd text NOT NULL DEFAULT '',
        download_formats text[] NOT NULL DEFAULT '{}',
        collapsing_index integer NOT NULL DEFAULT 0,
        query_time_specified boolean NOT NULL DEFAULT false,
        no_history boolean NOT NULL DEFAULT false,
        backgrounded boolean NOT NULL DEFAULT false,
        name text NOT NULL DEFAULT '',
        metadata jsonb NULL,
        save_metadata jsonb NULL,
        launch_info jsonb NULL,
        import_info jsonb NULL,
        error text NULL,
        over_limit boolean NOT NULL DEFAULT false,
        store_size bigint NOT NULL DEFAULT 0,
        index_size bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX saved_search_uid_idx ON saved_search (uid)`);
    await q.query(`
      CREATE TABLE search_history (
        id bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT search_history_pkey PRIMARY KEY,
        uid integer NOT NULL CONSTRAINT search_history_uid_fkey REFERENCES app_user (uid) ON DELETE CASCADE,
        gid integer NOT NULL DEFAULT 0,
        gids integer[] NOT NULL DEFAULT '{}',
        global boolean NOT NULL DEFAULT false,
        user_query text NOT NULL,
        effective_query text NOT NULL,
        launched timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX search_history_uid_launched_idx ON search_history (uid, launched DESC, id DESC)`);
    await q.query(`CREATE INDEX search_history_launched_idx ON search_history (launched DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE search_history`);
    await q.query(`DROP TABLE saved_search`);
  }
}
