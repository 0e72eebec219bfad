/** All renderers by name. To add one: write a RendererDef and list it here. */
import { chartRenderer } from './chart';
import { gaugeRenderer, numbercardRenderer } from './gauge';
import { RendererDef, RenderModuleInfo, renderModuleInfo } from './renderer';
import { tableRenderer } from './table';
import { rawRenderer, textRenderer } from './text';

const ALL: RendererDef[] = [textRenderer, rawRenderer, tableRenderer, chartRenderer, gaugeRenderer, numbercardRenderer];
const BY_NAME = new Map(ALL.map((r) => [r.name, r]));

export function findRenderer(name: string): RendererDef | undefined {
  return BY_NAME.get(name);
}

/** Payload of GET /api/info/rendermodules. */
export function renderModuleInfos(): RenderModuleInfo[] {
  return ALL.map(renderModuleInfo);
}
