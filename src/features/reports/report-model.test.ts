import { describe, expect, it } from 'vitest';
import type { ReportRow } from '../../../schema/reports.ts';
import {
  currenciesOf, defaultGrain, drillDown, parseReportsSearch, periodLabel, periodsBetween, rangeDates, shareText, timeSeries, topGroups,
} from './report-model.ts';

const row = (period: string, key: string | null, currency: string | null, value: number, count = 1): ReportRow => ({ period, key, currency, value, count });

describe('parseReportsSearch', () => {
  it('keeps each valid parameter, drops bad ones and the defaults', () => {
    expect(parseReportsSearch({ view: 'bills', range: 'custom', from: '2026-01-01', to: 'nope', grain: 'week', currency: 'eur', dimension: 'vendor' })).toEqual({
      view: 'bills', range: 'custom', from: '2026-01-01', grain: 'week', dimension: 'vendor',
    });
    expect(parseReportsSearch({ view: 'transactions', range: 'last_12_months' })).toEqual({});
  });
});

describe('rangeDates', () => {
  const today = '2026-11-27';
  it.each([
    ['this_month', { from: '2026-11-01', to: today }],
    ['last_month', { from: '2026-10-01', to: '2026-10-31' }],
    ['last_90_days', { from: '2026-08-30', to: today }],
    ['this_quarter', { from: '2026-10-01', to: today }],
    ['this_year', { from: '2026-01-01', to: today }],
    ['last_12_months', { from: '2025-12-01', to: today }],
    ['all', { to: today }],
  ] as const)('%s', (preset, expected) => {
    expect(rangeDates(preset, today)).toEqual(expected);
  });

  it('crosses a year end for last month in January, and takes a custom range as given', () => {
    expect(rangeDates('last_month', '2027-01-15')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(rangeDates('custom', today, { from: '2026-03-02' })).toEqual({ from: '2026-03-02', to: today });
  });
});

describe('periods', () => {
  it('lists every bucket of the range, aligned to its start, so empty ones show as zero', () => {
    expect(periodsBetween('2026-09-15', '2026-12-02', 'month')).toEqual(['2026-09-01', '2026-10-01', '2026-11-01', '2026-12-01']);
    expect(periodsBetween('2026-11-27', '2026-12-10', 'week')).toEqual(['2026-11-23', '2026-11-30', '2026-12-07']);
    expect(periodsBetween('2026-05-10', '2027-01-01', 'quarter')).toEqual(['2026-04-01', '2026-07-01', '2026-10-01', '2027-01-01']);
    expect(periodsBetween('2026-01-30', '2026-02-02', 'day')).toEqual(['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02']);
    expect(periodsBetween('2020-01-01', '2026-02-02', 'span')).toEqual(['2020-01-01']);
  });

  it('picks a readable grain for a range and names periods', () => {
    expect(defaultGrain('2026-11-01', '2026-11-27')).toBe('day');
    expect(defaultGrain('2026-08-30', '2026-11-27')).toBe('week');
    expect(defaultGrain('2025-12-01', '2026-11-27')).toBe('month');
    expect(defaultGrain(undefined, '2026-11-27')).toBe('month');
    expect(periodLabel('2026-10-01', 'quarter')).toBe('Q4 2026');
    expect(periodLabel('2026-11-23', 'week')).toBe('Week of Nov 23');
    expect(periodLabel('2026-11-01', 'month')).toBe('Nov 2026');
  });
});

describe('series and groups', () => {
  const rows = [
    row('2026-10-01', 'a', 'USD', 500, 2), row('2026-10-01', 'b', 'USD', 300), row('2026-10-01', 'c', 'USD', 100),
    row('2026-11-01', 'a', 'USD', 200), row('2026-11-01', 'c', 'USD', 50), row('2026-11-01', 'a', 'EUR', 9999, 9),
  ];

  it('orders currencies by how many rows they hold', () => {
    expect(currenciesOf(rows)).toEqual(['EUR', 'USD']);
    expect(currenciesOf([row('2026-10-01', null, 'USD', 1, 5), row('2026-10-01', null, 'GBP', 1, 2)])).toEqual(['USD', 'GBP']);
  });

  it('folds groups beyond the top into one, in one currency', () => {
    expect(topGroups(rows, 'USD', 2)).toEqual({
      groups: [{ key: 'a', value: 700, count: 3 }, { key: 'b', value: 300, count: 1 }],
      other: { key: null, value: 150, count: 2 },
      total: 1150,
    });
  });

  it('gives a value per period (zero where none), the rest summed as one series', () => {
    const periods = ['2026-09-01', '2026-10-01', '2026-11-01'];
    expect(timeSeries(rows, periods, 'USD', 1, 'sum').series).toEqual([
      { key: 'a', values: [0, 500, 200], total: 700 },
      { key: null, values: [0, 400, 50], total: 450, other: true },
    ]);
    // Averages cannot be summed: no "everything else".
    expect(timeSeries(rows, periods, 'USD', 1, 'average').series.map((s) => s.key)).toEqual(['a']);
  });

  it('words a share', () => {
    expect(shareText(1, 1000)).toBe('<1%');
    expect(shareText(425, 1000)).toBe('43%');
    expect(shareText(1, 0)).toBe('–');
  });
});

describe('drillDown', () => {
  const range = { from: '2026-10-01', to: '2026-10-31' };
  it('opens the matching card spend for every dimension the transactions list can filter on', () => {
    const spend = { ...range, states: 'PENDING,CLEARED' };
    expect(drillDown('transactions', 'department', 'd1', range)).toEqual({ to: '/transactions', search: { ...spend, department_ids: 'd1' } });
    expect(drillDown('transactions', 'gl_account', null, range)).toEqual({ to: '/transactions', search: { ...spend, missing_coding: true } });
    expect(drillDown('transactions', 'merchant', 'Uber', range)).toEqual({ to: '/transactions', search: { ...spend, merchant: 'Uber' } });
    expect(drillDown('transactions', 'status', 'PENDING', range)).toEqual({ to: '/transactions', search: { ...range, states: 'PENDING' } });
    expect(drillDown('transactions', 'department', null, range)).toBeNull();
  });

  it('opens the transactions of the figure\'s currency (issue 25): the list\'s rows and total are the figure\'s', () => {
    const eur = { ...range, currency: 'EUR' };
    expect(drillDown('transactions', 'department', 'd1', eur)).toEqual({ to: '/transactions', search: { ...range, currency: 'EUR', states: 'PENDING,CLEARED', department_ids: 'd1' } });
    expect(drillDown('transactions', 'none', null, eur)).toEqual({ to: '/transactions', search: { ...range, currency: 'EUR', states: 'PENDING,CLEARED' } });
    expect(drillDown('transactions', 'status', 'DECLINED', eur)).toEqual({ to: '/transactions', search: { ...range, currency: 'EUR', states: 'DECLINED' } });
    expect(drillDown('transactions', 'merchant', 'Uber', { ...range, currency: null })).toEqual({ to: '/transactions', search: { ...range, states: 'PENDING,CLEARED', merchant: 'Uber' } });
    // The other lists have no Currency filter: their links are unchanged.
    expect(drillDown('cards', 'status', 'LOCKED', eur)).toEqual({ to: '/cards', search: { view: 'managed', statuses: 'LOCKED' } });
  });

  it('opens the status tab of claims and bills, and a vendor’s bills by its name', () => {
    expect(drillDown('reimbursements', 'status', 'APPROVED', range)).toEqual({ to: '/reimbursements', search: { status: 'approved' } });
    expect(drillDown('bills', 'status', 'PENDING_APPROVAL', range)).toEqual({ to: '/bills', search: { status: 'pending' } });
    expect(drillDown('bills', 'vendor', 'v1', range, 'Acme')).toEqual({ to: '/bills', search: { q: 'Acme' } });
    expect(drillDown('cards', 'status', 'LOCKED', range)).toEqual({ to: '/cards', search: { view: 'managed', statuses: 'LOCKED' } });
  });
});
