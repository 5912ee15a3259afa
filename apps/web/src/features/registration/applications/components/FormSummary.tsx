import { FORM_FIELD_LABEL, type ApplicationDraft, type FormField } from '@zhikaoyun/shared';
import { InfoRows } from '../../../../components/InfoRows';

/** The application's fields as read-only rows, in the form's order. */
export function FormSummary({ form, fields }: { form: ApplicationDraft; fields: readonly string[] }) {
  const shown = (Object.keys(FORM_FIELD_LABEL) as FormField[]).filter((f) => fields.includes(f));
  return (
    <InfoRows
      rows={shown.map((f) => {
        const v = form[f];
        return { label: FORM_FIELD_LABEL[f], value: v === undefined || v === null ? '' : f === 'workYears' ? `${v} 年` : String(v) };
      })}
    />
  );
}
