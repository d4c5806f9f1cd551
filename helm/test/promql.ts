// What the deployment checks can tell about a PromQL expression without a Prometheus (promtool is not available
// here): its syntax, by the Prometheus project's own PromQL grammar (@prometheus-io/lezer-promql, the parser of the
// Prometheus web UI), plus two checks of ours: functions over a range get a range, and the metrics and labels an
// expression names are among those the services expose.
import { parser } from '@prometheus-io/lezer-promql';

type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

export interface Selector {
  metric: string;
  matchers: { label: string; op: string; value: string }[];
}

export interface PromqlFacts {
  /** Syntax errors and misuses; empty when the expression is sound. */
  errors: string[];
  selectors: Selector[];
  /** Labels named in `by (...)`, `without (...)`, `on (...)`, `ignoring (...)`. */
  groupingLabels: string[];
}

/** Functions whose argument is a range vector (`x[5m]`): given an instant vector, Prometheus refuses the query. */
const rangeFunctions = new Set([
  'rate',
  'irate',
  'increase',
  'delta',
  'idelta',
  'deriv',
  'changes',
  'resets',
  'avg_over_time',
  'min_over_time',
  'max_over_time',
  'sum_over_time',
  'count_over_time',
  'last_over_time',
  'quantile_over_time',
  'absent_over_time',
  'present_over_time',
]);

/** The string a PromQL string literal holds: "..." and '...' with Go escapes, `...` raw. */
function unquote(literal: string): string {
  if (literal.startsWith('`')) return literal.slice(1, -1);
  return literal.slice(1, -1).replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t' })[c] ?? c);
}

export function analysePromql(expr: string): PromqlFacts {
  const tree = parser.parse(expr);
  const text = (node: SyntaxNode) => expr.slice(node.from, node.to);
  const facts: PromqlFacts = { errors: [], selectors: [], groupingLabels: [] };
  tree.iterate({
    enter: (ref) => {
      const node = ref.node;
      if (node.type.isError) {
        facts.errors.push(`syntax error at ${node.from}: ${JSON.stringify(expr.slice(node.from, node.from + 30))}`);
        return;
      }
      if (node.name === 'VectorSelector') {
        const matchers = node
          .getChild('LabelMatchers')
          ?.getChildren('UnquotedLabelMatcher')
          .map((m) => ({
            label: text(m.getChild('LabelName')!),
            op: text(m.getChild('MatchOp')!),
            value: unquote(text(m.getChild('StringLiteral')!)),
          }));
        const identifier = node.getChild('Identifier');
        const byName = matchers?.find((m) => m.label === '__name__' && m.op === '=');
        facts.selectors.push({
          metric: identifier ? text(identifier) : (byName?.value ?? ''),
          matchers: (matchers ?? []).filter((m) => m !== byName),
        });
        if (node.getChild('LabelMatchers')?.getChild('QuotedLabelMatcher'))
          facts.errors.push(`quoted label names are not checked here: ${text(node)}`);
      }
      if (node.name === 'GroupingLabels')
        facts.groupingLabels.push(...node.getChildren('LabelName').map((label) => text(label)));
      if (node.name === 'FunctionCall') {
        const name = text(node.getChild('FunctionIdentifier')!);
        const [argument] = node.getChild('FunctionCallBody')?.getChildren('MatrixSelector') ?? [];
        const subquery = node.getChild('FunctionCallBody')?.getChild('SubqueryExpr');
        if (rangeFunctions.has(name) && !argument && !subquery)
          facts.errors.push(`${name}() needs a range vector: ${text(node)}`);
      }
    },
  });
  if (facts.selectors.some((s) => s.metric === ''))
    facts.errors.push('a selector without a metric name (too broad for an alert or a panel)');
  return facts;
}

/** A PromQL regular expression as Prometheus applies it: RE2, anchored at both ends. */
export const promRegex = (pattern: string) => new RegExp(`^(?:${pattern})$`);

/** Whether a matcher accepts a value. */
export function matches(matcher: { op: string; value: string }, value: string): boolean {
  switch (matcher.op) {
    case '=':
      return value === matcher.value;
    case '!=':
      return value !== matcher.value;
    case '=~':
      return promRegex(matcher.value).test(value);
    case '!~':
      return !promRegex(matcher.value).test(value);
    default:
      throw new Error(`unknown match operator ${matcher.op}`);
  }
}
