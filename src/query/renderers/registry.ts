/** All renderers by name. To add one: write a RendererDef and list it here. */
import { chartRenderer } from './chart';
import { gaugeRenderer, numbercardRenderer } from './gauge';
import { pointmapRenderer } from './pointmap';
import { RendererDef, RenderModuleInfo, renderModuleInfo, ResultKind } from './renderer';
import { stackgraphRenderer } from './stackgraph';
import { tableRenderer } from './table';
import { hexRenderer, rawRenderer, textRenderer } from './text';
import { wordcloudRenderer } from './wordcloud';

const ALL: RendererDef[] = [
  textRenderer,
  rawRenderer,
  hexRenderer,
  tableRenderer,
  chartRenderer,
  gaugeRenderer,
  numbercardRenderer,
  stackgraphRenderer,
  wordcloudRenderer,
  pointmapRenderer,
];
const BY_NAME = new Map(ALL.map((r) => [r.name, r]));

export function findRenderer(name: string): RendererDef | undefined {
  return BY_NAME.get(name);
}

/**
 * The kind of result a renderer makes, by its name as a search stores it. A name no renderer has
 * (an archive from elsewhere) reads as entries: the render store then holds its entries.
 */
export function resultKindOf(renderModule: string): ResultKind {
  return BY_NAME.get(renderModule)?.kind ?? 'entries';
}

/** Payload of GET /api/info/rendermodules. */
export function renderModuleInfos(): RenderModuleInfo[] {
  return ALL.map(renderModuleInfo);
}
