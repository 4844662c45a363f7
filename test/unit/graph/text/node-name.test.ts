/**
 * The one rule that names a node on every surface (src/graph/text/node-name.ts): the plan's name, the
 * rule's candidates (without the weak steps for a label the plan found unnamed), then for display
 * the label's own identifier and `Label #id`. The database only sends the candidate fields.
 */
import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { displayName, nameKeys, nodeName, type PlanName } from '../../../../src/graph/text/node-name.js';

const f = (props: Record<string, unknown>) => Object.entries(props);
/** The rule alone, as before the plan: the name with fallbacks, `null` for the `Label #id` fallback. */
const ruleName = (labels: string[], props: Record<string, unknown>) => {
  const shown = displayName([], labels, f(props), 99);
  return shown === `${labels[0]} #99` ? null : shown;
};

describe('nodeName and displayName by the rule alone', () => {
  it('names by the rule, passing over lists, numbers and placeholders', () => {
    expect(
      ruleName(['Supplier'], { companyName: 'Exotic Liquids', contactName: 'Charlotte Cooper', contactTitle: 'Purchasing Manager' }),
    ).toBe('Exotic Liquids');
    expect(ruleName(['Thing'], { name: ['gizmo', 'three'], title: 'Gizmo Three' })).toBe('Gizmo Three');
    expect(ruleName(['Thing'], { displayName: 7, name: 'NULL', title: 'Real' })).toBe('Real');
    expect(ruleName(['Employee'], { firstName: 'Nancy', lastName: 'Davolio', title: 'Sales Representative' })).toBe('Nancy Davolio');
    expect(ruleName(['Employee'], { firstName: 'Nancy', lastName: ['Davolio'], title: 'Sales Representative' })).toBe(
      'Sales Representative',
    );
  });

  it("falls back to the label's own identifier (a whole number in any driver form), else Label #id", () => {
    expect(ruleName(['Order'], { orderID: '10248', customerID: 'VINET', freight: '32.38' })).toBe('Order 10248');
    expect(ruleName(['Order_x1'], { orderId: 10248n })).toBe('Order_x1 10248');
    expect(ruleName(['Order_x1'], { orderId: neo4j.int(10248) })).toBe('Order_x1 10248');
    expect(ruleName(['Order_x1'], { orderId: 10248 })).toBe('Order_x1 10248');
    expect(ruleName(['Order_x1'], { orderId: 10248.5 })).toBeNull();
    expect(ruleName(['Order'], { orderID: ['a'], customerID: 'VINET' })).toBeNull();
    expect(ruleName(['Thing'], { contactTitle: 'Boss', born: 1964 })).toBeNull();
    expect(displayName([], ['Thing'], f({ contactTitle: 'Boss' }), neo4j.int(42))).toBe('Thing #42');
    expect(displayName([], [], [], 3)).toBe('Node #3');
    // The chunk header's name has no fallback.
    expect(nodeName([], ['Order'], f({ orderID: '10248' }))).toBe('');
  });
});

describe('nodeName under a plan', () => {
  const plan: PlanName[] = [
    { label: 'Supplier', keys: ['companyName'] },
    { label: 'Person', keys: ['given', 'family'] },
    { label: 'Order', keys: [] },
  ];

  it("takes the plan's name first, when all its keys hold names", () => {
    expect(nodeName(plan, ['Supplier'], f({ name: 'Other', companyName: 'Exotic Liquids' }))).toBe('Exotic Liquids');
    expect(nodeName(plan, ['Person'], f({ name: 'Nick', given: 'Ann', family: 'Lee' }))).toBe('Ann Lee');
    // One key is no name: the rule names the node.
    expect(nodeName(plan, ['Person'], f({ name: 'Nick', given: 'Ann', family: 'NULL' }))).toBe('Nick');
    expect(nodeName(plan, ['Supplier'], f({ companyName: ['a', 'b'], contactName: 'Charlotte' }))).toBe('Charlotte');
  });

  it('takes the first entry in plan order whose keys all hold names', () => {
    const two: PlanName[] = [
      { label: 'A', keys: ['x'] },
      { label: 'B', keys: ['y'] },
    ];
    expect(nodeName(two, ['B', 'A'], f({ x: 'Ex', y: 'Why' }))).toBe('Ex');
    expect(nodeName(two, ['B', 'A'], f({ x: 42, y: 'Why' }))).toBe('Why');
  });

  it("a label the plan found unnamed: only the rule's strong steps, then its own identifier", () => {
    expect(nodeName(plan, ['Order'], f({ shipName: 'Vins et alcools', title: 'T', orderID: 10248 }))).toBe('');
    expect(displayName(plan, ['Order'], f({ shipName: 'Vins et alcools', orderID: 10248 }), 7)).toBe('Order 10248');
    expect(nodeName(plan, ['Order'], f({ name: 'Named', shipName: 'Vins' }))).toBe('Named');
    expect(nodeName(plan, ['Order'], f({ orderName: 'Own' }))).toBe('Own');
    // Without the plan, the weak steps name it.
    expect(nodeName([], ['Order'], f({ shipName: 'Vins et alcools' }))).toBe('Vins et alcools');
  });

  it('lists every key the plan names by, once', () => {
    expect(nameKeys([...plan, { label: 'Other', keys: ['companyName', 'text'] }])).toEqual(['companyName', 'given', 'family', 'text']);
  });
});
