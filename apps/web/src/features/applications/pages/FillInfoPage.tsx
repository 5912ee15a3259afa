import {
  applicationFormSchema,
  DEGREES,
  EDUCATION_LEVELS,
  FORM_FIELD_LABEL,
  POLITICAL_STATUSES,
  type ApplicationDraft,
  type Exam,
  type FormField,
} from '@zhikaoyun/shared';
import type { Rule } from 'antd/es/form';
import { Alert, Button, Form, Input, InputNumber, Select, Skeleton } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { ExamTitle } from '../../../components/ExamTitle';
import { GroupTitle } from '../../../components/GroupTitle';
import { MobileBaseInfoCard } from '../../../components/MobileBaseInfoCard';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { zodRule } from '../../../lib/form-rules';
import { useSysStore } from '../../../lib/store';
import { applicationKey, useApplication } from '../api';
import { useAutosave } from '../autosave';
import { ExamGate } from '../../../components/ExamGate';
import { SaveIndicator } from '../components/SaveIndicator';

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

const SECTIONS: { title: string; fields: FormField[] }[] = [
  { title: '学历信息', fields: ['education', 'degree', 'school', 'major', 'graduationDate'] },
  { title: '工作经历', fields: ['workYears', 'workExperience'] },
  { title: '联系方式及其他', fields: ['politicalStatus', 'contactPhone', 'address'] },
];

function control(field: FormField): ReactNode {
  switch (field) {
    case 'education':
      return <Select size="large" options={options(EDUCATION_LEVELS)} placeholder="请选择" />;
    case 'degree':
      return <Select size="large" options={options(DEGREES)} placeholder="请选择" />;
    case 'politicalStatus':
      return <Select size="large" options={options(POLITICAL_STATUSES)} placeholder="请选择" />;
    case 'graduationDate':
      return <Input size="large" type="month" max="2100-12" />;
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

function FillForm({ exam }: { exam: Exam }) {
  const navigate = useNavigate();
  const userInfo = useSysStore((s) => s.userInfo);
  const application = useApplication(exam.id);
  const [form] = Form.useForm<ApplicationDraft>();
  const client = useQueryClient();
  const autosave = useAutosave(exam.id, (saved) => client.setQueryData(applicationKey(exam.id), saved));
  const asked = useMemo(() => new Set(exam.config.fields), [exam.config.fields]);
  const required = useMemo(() => new Set(exam.config.required), [exam.config.required]);
  const locked = application.data && (application.data.status === 'submitted' || application.data.status === 'approved');

  useEffect(() => {
    if (!application.data && application.isSuccess && userInfo) form.setFieldsValue({ contactPhone: userInfo.mobile });
    if (application.data) form.setFieldsValue(application.data.form);
  }, [application.data, application.isSuccess, form, userInfo]);

  if (application.isLoading) {
    return (
      <MobileContainerCard>
        <Skeleton active paragraph={{ rows: 10 }} />
      </MobileContainerCard>
    );
  }

  const rulesFor = (field: FormField): Rule[] => {
    const rules: Rule[] = [zodRule(applicationFormSchema.shape[field].optional())];
    if (required.has(field)) rules.unshift({ required: true, message: `请填写${FORM_FIELD_LABEL[field]}` });
    return rules;
  };

  async function next() {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    await autosave.flush();
    navigate('/job-positions');
  }

  return (
    <div className="fill-info-page">
      <MobileContainerCard>
        <ExamTitle name={exam.name} />
        {locked ? (
          <Alert type="info" showIcon title="报名信息已提交，当前为只读。如需修改，请在报考状态页撤回后再修改。" />
        ) : (
          <SaveIndicator state={autosave.state} />
        )}
      </MobileContainerCard>
      {userInfo && <MobileBaseInfoCard userInfo={userInfo} />}
      <Form<ApplicationDraft>
        name="application"
        form={form}
        layout="vertical"
        requiredMark
        disabled={!!locked || exam.phase !== 'registering'}
        onValuesChange={() => autosave.schedule({ ...application.data?.form, ...form.getFieldsValue(true) })}
        scrollToFirstError
      >
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
      </Form>
      <div className="page-actions">
        {locked ? (
          <Button type="primary" size="large" block onClick={() => navigate('/current-exam')}>
            查看报考状态
          </Button>
        ) : (
          <Button type="primary" size="large" block onClick={() => void next()} disabled={exam.phase !== 'registering'}>
            下一步：选择岗位
          </Button>
        )}
      </div>
    </div>
  );
}

/** 填写报考信息: sections from the exam's configuration; the draft saves as the candidate types. */
export default function FillInfoPage() {
  return <ExamGate>{(exam) => <FillForm exam={exam} />}</ExamGate>;
}
