/** All search modules by name. To add a module: write a ModuleDef and list it here. */
import { evalModule } from './eval';
import { fieldsModule } from './fields';
import { firstModule, lastModule } from './first-last';
import { grepModule } from './grep';
import { jsonModule } from './json';
import { kvModule } from './kv';
import { limitModule } from './limit';
import { lookupModule } from './lookup';
import { ModuleDef, moduleInfo, SearchModuleInfo } from './module';
import { regexModule } from './regex';
import { sortModule } from './sort';
import { nosortModule } from './nosort';
import { mathModules, statsModule } from './stats';
import { bottomModule, topModule } from './top-bottom';
import { uniqueModule } from './unique';
import { wordsModule } from './words';
import { aliasModule } from './alias';
import { axModule } from './ax';
import { cefModule } from './cef';
import { csvModule } from './csv';
import { grokModule } from './grok';
import { lengthModule } from './length';
import { requireModule } from './require';
import { srcModule } from './src';
import { subnetModule } from './subnet';
import { syslogModule } from './syslog';
import { lowerModule, upperModule } from './upper-lower';
import { xmlModule } from './xml';
// issue 28: the data-transform modules
import { printfModule } from './printf';
import { base64Module } from './base64';
import { hexlifyModule } from './hexlify';
import { trimModules } from './trim';
import { truncateModule } from './truncate';
import { concatModule } from './concat';
import { absModule } from './abs';
import { keepModule } from './keep';
import { unescapeModule } from './unescape';
import { splitModule } from './split';
import { sliceModule } from './slice';
import { stringsModule } from './strings';
import { entropyModule } from './entropy';
import { pathModule } from './path';
import { timeModule } from './time-convert';

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
  firstModule,
  lastModule,
  topModule,
  bottomModule,
  nosortModule,
  lookupModule,
  csvModule,
  syslogModule,
  cefModule,
  xmlModule,
  subnetModule,
  aliasModule,
  lengthModule,
  upperModule,
  lowerModule,
  requireModule,
  srcModule,
  evalModule,
  axModule,
  // issue 28: the data-transform modules
  printfModule,
  base64Module,
  hexlifyModule,
  ...trimModules,
  truncateModule,
  concatModule,
  absModule,
  keepModule,
  unescapeModule,
  splitModule,
  sliceModule,
  stringsModule,
  entropyModule,
  pathModule,
  timeModule,
];

/** Modules of the product this service refuses with a reason (parse error), not listed in searchmodules. */
const REFUSED: ModuleDef[] = [grokModule];

const BY_NAME = new Map([...ALL, ...REFUSED].map((m) => [m.name, m]));

export function findModule(name: string): ModuleDef | undefined {
  return BY_NAME.get(name);
}

/** Payload of GET /api/info/searchmodules. */
export function searchModuleInfos(): SearchModuleInfo[] {
  return ALL.map(moduleInfo);
}
