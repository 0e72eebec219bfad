import { GaugeValue } from '../../api/types';
import { currentPalette } from './chart-options';
import { EChart } from './EChart';

const fmt = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 3 }));

/** gauge: a dial per value; numbercard: the number, large. Both say the value in words too. */
export function GaugeView({ values, card }: { values: GaugeValue[]; card: boolean }) {
  if (values.length === 0) return <p className="muted">No value.</p>;
  const palette = currentPalette();
  return (
    <ul className={card ? 'number-cards' : 'gauges'} aria-label={card ? 'Number cards' : 'Gauges'}>
      {values.map((g) => (
        <li key={g.Name} className="card" aria-label={`${g.Name}: ${fmt(g.Magnitude)}`}>
          {card ? (
            <p className="big-number">{fmt(g.Magnitude)}</p>
          ) : (
            <EChart
              height={220}
              label={`Gauge ${g.Name}: ${fmt(g.Magnitude)} on a scale from ${fmt(g.Min)} to ${fmt(g.Max)}`}
              option={{
                animation: false,
                series: [
                  {
                    type: 'gauge',
                    min: g.Min,
                    max: g.Max,
                    radius: '95%',
                    splitNumber: 5,
                    data: [{ value: g.Magnitude, name: g.Name }],
                    progress: { show: true, width: 12 },
                    axisLine: { lineStyle: { width: 12 } },
                    axisTick: { show: false },
                    splitLine: { length: 8, distance: 4, lineStyle: { color: palette.grid } },
                    axisLabel: { color: palette.text, fontSize: 11, distance: 18 },
                    pointer: { width: 5 },
                    title: { show: false },
                    detail: { color: palette.text, fontSize: 22, offsetCenter: [0, '65%'], formatter: (v: number) => fmt(v) },
                  },
                ],
              }}
            />
          )}
          <p className="card-label">
            <span className="name">{g.Name}</span>
            {!card && <span className="value"> {fmt(g.Magnitude)}</span>}
            {!card && (
              <span className="muted">
                {' '}
                (range {fmt(g.Min)} to {fmt(g.Max)})
              </span>
            )}
          </p>
        </li>
      ))}
    </ul>
  );
}
