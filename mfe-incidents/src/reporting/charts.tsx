import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js';
import { Bar } from 'react-chartjs-2';

// Only what bar charts need: Chart.js is tree-shaken down to these parts (docs/performance.md).
ChartJS.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Okabe–Ito colours: told apart with the common colour-vision deficiencies. */
export const SERIES_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00'];
const SINGLE_COLOUR = '#1f4e79';

let canvasDrawable: boolean | undefined;
/** Whether this browser draws on a canvas (jsdom does not: Chart.js would fail on its first update). */
const canDraw = () => (canvasDrawable ??= document.createElement('canvas').getContext('2d') !== null);

const reducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export interface BarSeries {
  label: string;
  values: readonly number[];
}

export interface BarChartProps {
  labels: readonly string[];
  series: readonly BarSeries[];
  /** Series stacked in one bar per label (cases per month by channel). */
  stacked?: boolean;
  /** Bars along the x axis (long names: labels, locations). */
  horizontal?: boolean;
  /** What the canvas says to assistive technology; the figures themselves are in the table view. */
  description: string;
}

/** A bar chart on a canvas, counts on an integer axis. */
export function BarChart({ labels, series, stacked = false, horizontal = false, description }: BarChartProps) {
  // Without a canvas the same described element stays, empty: the figure's table carries the numbers.
  if (!canDraw())
    return (
      <canvas role="img" aria-label={description}>
        {description}
      </canvas>
    );
  const data: ChartData<'bar'> = {
    labels: [...labels],
    datasets: series.map((one, index) => ({
      label: one.label,
      data: [...one.values],
      backgroundColor: series.length === 1 ? SINGLE_COLOUR : SERIES_COLOURS[index % SERIES_COLOURS.length],
    })),
  };
  const countAxis = { stacked, beginAtZero: true, ticks: { precision: 0 } };
  const labelAxis = { stacked };
  const options: ChartOptions<'bar'> = {
    indexAxis: horizontal ? 'y' : 'x',
    responsive: true,
    maintainAspectRatio: false,
    animation: reducedMotion() ? false : undefined,
    plugins: { legend: { display: series.length > 1, position: 'bottom' } },
    scales: horizontal ? { x: countAxis, y: labelAxis } : { x: labelAxis, y: countAxis },
  };
  return <Bar data={data} options={options} role="img" aria-label={description} fallbackContent={description} />;
}
