import {
  applicationFormSchema,
  DEGREES,
  EDUCATION_LEVELS,
  FORM_FIELD_LABEL,
  graduationDateProblem,
  latestGraduationMonth,
  POLITICAL_STATUSES,
  type ExamConfig,
  type FormField,
} from '@zhikaoyun/shared';
import type { Rule } from 'antd/es/form';
import { Form, Input, InputNumber, Select } from 'antd';
import type { ReactNode } from 'react';
import { formatDate } from '../../../../components/format';
import { GroupTitle } from '../../../../components/GroupTitle';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { zodRule } from '../../../../lib/form-rules';

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

const SECTIONS: { title: string; fields: FormField[] }[] = [
  { title: '学历信息', fields: ['education', 'degree', 'school', 'major', 'graduationDate'] },
  { title: '工作经历', fields: ['workYears', 'workExperience'] },
  { title: '联系方式及其他', fields: ['politicalStatus', 'contactPhone', 'address'] },
];

/** Today on the office's calendar (graduation may be no later than the coming summer). */
const officeToday = () => formatDate(new Date().toISOString());

function control(field: FormField): ReactNode {
  switch (field) {
    case 'education':
      return <Select size="large" options={options(EDUCATION_LEVELS)} placeholder="请选择" />;
    case 'degree':
      return <Select size="large" options={options(DEGREES)} placeholder="请选择" />;
    case 'politicalStatus':
      return <Select size="large" options={options(POLITICAL_STATUSES)} placeholder="请选择" />;
    case 'graduationDate':
      return <Input size="large" type="month" min="1950-01" max={latestGraduationMonth(officeToday())} />;
    case 'workYears':
      return <InputNumber size="large" min={0} max={50} precision={0} addonAfter="年" style={{ width: '100%' }} />;
    case 'workExperience':
      return <Input.TextArea rows={4} maxLength={1000} showCount placeholder="按时间顺序填写：起止年月、单位、职务" />;
    case 'contactPhone':
      return <Input size="large" maxLength={13} inputMode="tel" autoComplete="tel" />;
    default:
      return <Input size="large" maxLength={field === 'address' ? 120 : 60} />;
  }
}

/**
 * The application form's sections: only the fields the exam asks for, those it requires marked,
 * each checked in the browser by the same schema the server applies at submit.
 */
export function ApplicationFormFields({ config }: { config: ExamConfig }) {
  const asked = new Set(config.fields);
  const required = new Set(config.required);
  const rulesFor = (field: FormField): Rule[] => {
    const rules: Rule[] = [zodRule(applicationFormSchema.shape[field].optional())];
    if (field === 'graduationDate') {
      rules.push({
        validator: async (_rule, value: string | undefined) => {
          const problem = graduationDateProblem(value, officeToday());
          if (problem) throw new Error(problem);
        },
      });
    }
    if (required.has(field)) rules.unshift({ required: true, message: `请填写${FORM_FIELD_LABEL[field]}` });
    return rules;
  };
  return (
    <>
      {SECTIONS.map((section) => {
        const fields = section.fields.filter((f) => asked.has(f) || required.has(f));
        if (fields.length === 0) return null;
        return (
          <div key={section.title}>
            <GroupTitle>{section.title}</GroupTitle>
            <MobileContainerCard>
              {fields.map((f) => (
                <Form.Item key={f} name={f} label={FORM_FIELD_LABEL[f]} rules={rulesFor(f)}>
                  {control(f)}
                </Form.Item>
              ))}
            </MobileContainerCard>
          </div>
        );
      })}
    </>
  );
}
