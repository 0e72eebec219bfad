/** All search modules by name. To add a module: write a ModuleDef and list it here. */
import { fieldsModule } from './fields';
import { grepModule } from './grep';
import { jsonModule } from './json';
import { kvModule } from './kv';
import { limitModule } from './limit';
import { ModuleDef, moduleInfo, SearchModuleInfo } from './module';
import { regexModule } from './regex';
import { sortModule } from './sort';
import { mathModules, statsModule } from './stats';
import { uniqueModule } from './unique';
import { wordsModule } from './words';

const ALL: ModuleDef[] = [
  jsonModule,
  kvModule,
  regexModule,
  fieldsModule,
  grepModule,
  wordsModule,
  statsModule,
  ...mathModules,
  sortModule,
  limitModule,
  uniqueModule,
];

const BY_NAME = new Map(ALL.map((m) => [m.name, m]));

export function findModule(name: string): ModuleDef | undefined {
  return BY_NAME.get(name);
}

/** Payload of GET /api/info/searchmodules. */
export function searchModuleInfos(): SearchModuleInfo[] {
  return ALL.map(moduleInfo);
}
