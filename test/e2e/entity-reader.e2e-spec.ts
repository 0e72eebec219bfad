import { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DashboardEntity } from '../../src/dashboards/dashboard.entity';
import { EntityReader } from '../../src/database/entity-reader';
import { createTestApp, TestApp } from '../setup/app';

describe('EntityReader (e2e, real PostgreSQL)', () => {
  let t: TestApp;
  let ds: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    ds = t.app.get<DataSource>(getDataSourceToken());
    await ds.query(
      `INSERT INTO dashboard (id, guid, uid, name, description, gids, global, labels, data)
       VALUES (9007199254740991, 'a4d0c9a6-3d7c-4b2e-9d58-6d1f0c2b7e11', 1, 'big', 'd', '{3,1}', true, '{x,y}', '{"tiles":[1,{"a":null}]}'),
              (7, 'b4d0c9a6-3d7c-4b2e-9d58-6d1f0c2b7e12', 1, 'nulls', '', NULL, false, NULL, 'null')`,
    );
  });
  afterAll(() => t.close());

  it('reads the same entities as TypeORM: transformers, arrays, JSON, dates, NULLs, class', async () => {
    const reader = new EntityReader(ds, DashboardEntity, 'd');
    const ours = await reader.many('ORDER BY d.id');
    const theirs = await ds.getRepository(DashboardEntity).find({ order: { id: 'ASC' } });
    expect(ours).toEqual(theirs);
    expect(ours[0]).toBeInstanceOf(DashboardEntity);
    expect(ours.map((d) => d.id)).toEqual([7, 9007199254740991]);
    expect(ours[1].createdAt).toBeInstanceOf(Date);
  });

  it('binds parameters and returns null when nothing matches', async () => {
    const reader = new EntityReader(ds, DashboardEntity, 'd');
    expect((await reader.one('WHERE d.name = $1', ['big']))?.gids).toEqual([3, 1]);
    expect(await reader.one('WHERE d.name = $1', ["x' OR true --"])).toBeNull();
  });
});
