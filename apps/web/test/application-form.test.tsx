import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form } from 'antd';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ApplicationFormFields } from '../src/features/registration/applications/components/ApplicationFormFields';

function Harness({ fields, required }: { fields: string[]; required: string[] }) {
  const [form] = Form.useForm();
  // The form's own verdict, so a test waits for validation to finish instead of sleeping.
  const [verdict, setVerdict] = useState('');
  return (
    <Form
      form={form}
      name="t"
      layout="vertical"
      validateTrigger="onBlur"
      onFinish={() => setVerdict('填写无误')}
      onFinishFailed={() => setVerdict('填写有误')}
    >
      <ApplicationFormFields config={{ fields, required }} />
      <Button htmlType="submit">检查填写</Button>
      <output>{verdict}</output>
    </Form>
  );
}

describe('application form fields', () => {
  it('shows only the fields the exam asks for, in their sections', () => {
    render(<Harness fields={['education', 'school', 'contactPhone']} required={['education']} />);
    expect(screen.getByText('学历信息')).toBeTruthy();
    expect(screen.getByText('联系方式及其他')).toBeTruthy();
    expect(screen.queryByText('工作经历')).toBeNull();
    expect(screen.getByLabelText('毕业院校')).toBeTruthy();
    expect(screen.queryByLabelText('所学专业')).toBeNull();
  });

  it('asks for the required fields and checks formats with the shared rules', async () => {
    render(<Harness fields={['education', 'major', 'contactPhone', 'graduationDate']} required={['education', 'major']} />);
    await userEvent.type(screen.getByLabelText('联系电话'), '138');
    await userEvent.click(screen.getByRole('button', { name: '检查填写' }));
    await waitFor(() => expect(screen.getByText('请填写最高学历')).toBeTruthy());
    expect(screen.getByText('请填写所学专业')).toBeTruthy();
    expect(screen.getByText('请输入正确的联系电话')).toBeTruthy();
  });

  it('leaves optional fields free when empty', async () => {
    render(<Harness fields={['school', 'address']} required={[]} />);
    await userEvent.click(screen.getByRole('button', { name: '检查填写' }));
    await screen.findByText('填写无误');
    expect(document.querySelectorAll('.ant-form-item-explain-error')).toHaveLength(0);
  });
});
