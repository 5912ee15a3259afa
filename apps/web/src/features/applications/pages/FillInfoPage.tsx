import type { ApplicationDraft, Exam } from '@zhikaoyun/shared';
import { Alert, Button, Form, Skeleton } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ExamTitle } from '../../../components/ExamTitle';
import { MobileBaseInfoCard } from '../../../components/MobileBaseInfoCard';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { useSysStore } from '../../../lib/store';
import { applicationKey, useApplication } from '../api';
import { useAutosave } from '../autosave';
import { ExamGate } from '../../../components/ExamGate';
import { ApplicationFormFields } from '../components/ApplicationFormFields';
import { SaveIndicator } from '../components/SaveIndicator';

function FillForm({ exam }: { exam: Exam }) {
  const navigate = useNavigate();
  const userInfo = useSysStore((s) => s.userInfo);
  const application = useApplication(exam.id);
  const [form] = Form.useForm<ApplicationDraft>();
  const client = useQueryClient();
  const autosave = useAutosave(exam.id, (saved) => client.setQueryData(applicationKey(exam.id), saved));
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
        <ApplicationFormFields config={exam.config} />
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
