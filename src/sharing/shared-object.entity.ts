import { Column } from 'typeorm';

/**
 * The columns of a shared object, declared once: the owner, the Global flag, the labels, the
 * groups and the creation time. Each kind's entity extends one of the two classes below with its
 * own key, fields and indexes (TypeORM copies the columns into the kind's own table).
 *
 * The owner's foreign key and the indexes on these columns are not declared here: their names are
 * the kind's table's (`dashboard_uid_fkey`, `resource_gids_idx`, ...), as its migration created them,
 * and `src/sharing` may not import the users' entity (a higher layer). Each kind's entity declares
 * them with class decorators (`@ForeignKey(() => UserEntity, ['uid'], ['uid'], ...)`,
 * `@Index(name, ['gids'], { type: 'gin' })`); test/e2e/migration-drift checks that none is missing.
 */
abstract class OwnedObjectColumns {
  @Column({ type: 'integer' })
  uid: number;

  @Column({ type: 'boolean', default: false })
  global: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}

/** A shared object whose groups and labels are never NULL (empty: none). Every kind but dashboards. */
export abstract class SharedObjectEntity extends OwnedObjectColumns {
  @Column({ type: 'integer', array: true, default: () => "'{}'" })
  gids: number[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  labels: string[];
}

/** Dashboards, the first kind: NULL groups or labels mean none (the API answers `null`). */
export abstract class NullableListsSharedObjectEntity extends OwnedObjectColumns {
  @Column({ type: 'integer', array: true, nullable: true })
  gids: number[] | null;

  @Column({ type: 'text', array: true, nullable: true })
  labels: string[] | null;
}
