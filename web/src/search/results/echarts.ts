/** ECharts, only the parts the console draws (modular imports keep the chunk small). Loaded lazily. */
import { BarChart, GaugeChart, LineChart, PieChart } from 'echarts/charts';
import { BrushComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as registerParts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

registerParts([LineChart, BarChart, PieChart, GaugeChart, GridComponent, TooltipComponent, LegendComponent, BrushComponent, CanvasRenderer]);

export { init };
export type { EChartsType } from 'echarts/core';
