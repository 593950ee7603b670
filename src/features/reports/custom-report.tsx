import { useState } from 'react';
import { REPORT_SPECS, type ReportDimension, type ReportMeasure } from '../../../schema/reports.ts';
import { Button } from '../../components/button.tsx';
import { SelectField, type SelectOption } from '../../components/select-field.tsx';
import type { ReferenceView } from '../../lib/reference-data.ts';
import { SaveReportDialog } from './dashboards.tsx';
import { DIMENSION_LABELS, GRAIN_LABELS, MEASURE_LABELS, measureText, type ReportsSearch } from './report-model.ts';
import type { CardProps } from './report-frame.ts';
import { ReportCard, TimeReportBody } from './report-parts.tsx';
import { useReport } from './use-report.ts';

/** Any grouping the data allows, over time: the report a finance lead builds for their question. */
export function CustomReport({ search, set, frame, currency, client, version, base, reference }: CardProps & {
  search: ReportsSearch; set: (p: Partial<ReportsSearch>) => void; currency: string | null; reference: ReferenceView;
}) {
  const [saving, setSaving] = useState(false);
  const allowed = REPORT_SPECS[frame.view].dimensions.filter((d) => d !== 'tracking_category' || reference.data.tracking_categories.length > 0);
  const dimension = search.dimension && allowed.includes(search.dimension) ? search.dimension : allowed.find((d) => d !== 'none') ?? 'none';
  const measure = search.measure ?? 'sum';
  const tracking = dimension === 'tracking_category' ? (search.tracking ?? reference.data.tracking_categories[0]?.id) : undefined;
  const plain = base(dimension, measure, frame.grain);
  const query = tracking ? { ...plain, tracking_category_id: tracking } : plain;
  const state = useReport(client, dimension === 'tracking_category' && !tracking ? null : query, version);
  const dimensionOptions: SelectOption[] = allowed.map((d) => ({ value: d, label: DIMENSION_LABELS[d] }));
  return (
    <ReportCard title="Custom report" description={`${measureText(measure, dimension)}, ${GRAIN_LABELS[frame.grain].toLowerCase()}, ${frame.rangeText}.`} state={state} wide>
      {(rows, labels) => {
        return (
          <>
            <div className="report-builder" role="group" aria-label="Custom report">
              <SelectField variant="filter" label="Group by" value={dimension} options={dimensionOptions} onChange={(v) => set({ dimension: v as ReportDimension })} />
              {dimension === 'tracking_category' && (
                <SelectField
                  variant="filter"
                  label="Category"
                  value={tracking ?? ''}
                  options={reference.data.tracking_categories.map((c) => ({ value: c.id, label: c.name }))}
                  onChange={(v) => set({ tracking: v })}
                />
              )}
              <SelectField
                variant="filter"
                label="Measure"
                value={measure}
                options={(['sum', 'count', 'average'] as const).map((m) => ({ value: m, label: MEASURE_LABELS[m] }))}
                onChange={(v) => set({ measure: v === 'sum' ? undefined : (v as ReportMeasure) })}
              />
              <span className="spacer" />
              <Button onClick={() => setSaving(true)}>Save to dashboard</Button>
            </div>
            {saving && (
              <SaveReportDialog
                client={client}
                query={query}
                suggestedName={measureText(measure, dimension)}
                dashboards={reference.data.dashboards}
                onClose={() => setSaving(false)}
                onSaved={(id) => {
                  setSaving(false);
                  set({ dashboard: id });
                }}
              />
            )}
            <TimeReportBody
              rows={rows}
              labels={labels}
              view={frame.view}
              dimension={dimension}
              measure={measure}
              grain={frame.grain}
              from={frame.from}
              to={frame.to}
              currency={currency}
              chart="line"
              reference={reference}
              caption="Custom report"
            />
          </>
        );
      }}
    </ReportCard>
  );
}

