import { examInputSchema, FORM_FIELD_LABEL, FORM_FIELDS, type AdminExam, type FormField } from '@zhikaoyun/shared';
import { App, Button, Checkbox, DatePicker, Drawer, Form, Input, Space, Switch, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { zodRule } from '../../../lib/form-rules';
import { useSaveExam } from './api';

type Range = [Dayjs, Dayjs];
interface Values {
  name: string;
  registration: Range;
  review: Range;
  confirmation: Range;
  fields: FormField[];
  required: FormField[];
  published: boolean;
}

const range = (a: string, b: string): Range => [dayjs(a), dayjs(b)];

function initial(exam: AdminExam | null): Values {
  if (exam) {
    return {
      name: exam.name,
      registration: range(exam.registrationStart, exam.registrationEnd),
      review: range(exam.reviewStart, exam.reviewEnd),
      confirmation: range(exam.confirmationStart, exam.confirmationEnd),
      fields: exam.config.fields.filter((f): f is FormField => FORM_FIELDS.includes(f as FormField)),
      required: exam.config.required.filter((f): f is FormField => FORM_FIELDS.includes(f as FormField)),
      published: exam.published,
    };
  }
  // A new exam opens from the current hour; the office adjusts the windows before publishing.
  const start = dayjs().startOf('hour');
  const day = (n: number, hour: number) => start.add(n, 'day').startOf('day').hour(hour);
  return {
    name: '',
    registration: [start, day(10, 17)],
    review: [start, day(12, 17)],
    confirmation: [day(13, 9), day(15, 17)],
    fields: ['education', 'degree', 'school', 'major', 'graduationDate', 'contactPhone'],
    required: ['education', 'school', 'major', 'contactPhone'],
    published: false,
  };
}

/** Creates or edits an exam: its name, three windows and which form fields it asks and requires. */
export function ExamFormDrawer({ exam, open, onClose }: { exam: AdminExam | null; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const save = useSaveExam();
  const { message } = App.useApp();
  const fields = Form.useWatch('fields', form) ?? [];
  const required = Form.useWatch('required', form) ?? [];

  useEffect(() => {
    if (open) form.setFieldsValue(initial(exam));
  }, [open, exam, form]);

  const submit = async (v: Values) => {
    const input = {
      ...(exam ? { id: exam.id } : {}),
      name: v.name,
      registrationStart: v.registration[0].toISOString(),
      registrationEnd: v.registration[1].toISOString(),
      reviewStart: v.review[0].toISOString(),
      reviewEnd: v.review[1].toISOString(),
      confirmationStart: v.confirmation[0].toISOString(),
      confirmationEnd: v.confirmation[1].toISOString(),
      config: { fields: v.fields, required: v.required.filter((f) => v.fields.includes(f)) },
      published: v.published,
    };
    // The same rules as the server, so a window out of order is named before the round trip.
    const checked = examInputSchema.safeParse(input);
    if (!checked.success) {
      void message.error(checked.error.issues[0]?.message ?? '填写有误');
      return;
    }
    await save.mutateAsync(input);
    void message.success(exam ? '考试已保存' : '考试已创建');
    onClose();
  };

  const toggle = (list: 'fields' | 'required', field: FormField, on: boolean) => {
    const current: FormField[] = form.getFieldValue(list) ?? [];
    const next = on ? [...current, field] : current.filter((f) => f !== field);
    form.setFieldValue(
      list,
      FORM_FIELDS.filter((f) => next.includes(f)),
    );
    if (list === 'fields' && !on)
      form.setFieldValue(
        'required',
        (form.getFieldValue('required') as FormField[]).filter((f) => f !== field),
      );
    if (list === 'required' && on && !fields.includes(field))
      form.setFieldValue(
        'fields',
        FORM_FIELDS.filter((f) => [...fields, field].includes(f)),
      );
  };

  const rangeField = (name: 'registration' | 'review' | 'confirmation', label: string) => (
    <Form.Item name={name} label={label} rules={[{ required: true, message: `请选择${label}` }]}>
      <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
    </Form.Item>
  );

  return (
    <Drawer
      title={exam ? '编辑考试' : '新建考试'}
      open={open}
      onClose={onClose}
      size="large"
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>
            保存
          </Button>
        </Space>
      }
    >
      <Form form={form} name="exam-form" layout="vertical" onFinish={(v) => void submit(v).catch(() => undefined)} requiredMark={false}>
        <Form.Item name="name" label="考试名称" rules={[zodRule(examInputSchema.shape.name)]}>
          <Input maxLength={80} showCount placeholder="如：2027 年度市属事业单位公开招聘" />
        </Form.Item>
        {rangeField('registration', '报名时间')}
        {rangeField('review', '资格审查时间')}
        {rangeField('confirmation', '报名确认时间')}
        <Form.Item label="报名表字段" help="勾选“询问”的字段出现在报名表中；“必填”的字段提交时必须填写。">
          <Form.Item name="fields" hidden>
            <Input />
          </Form.Item>
          <Form.Item name="required" hidden>
            <Input />
          </Form.Item>
          <Table
            size="small"
            rowKey="field"
            pagination={false}
            dataSource={FORM_FIELDS.map((field) => ({ field }))}
            columns={[
              { title: '字段', dataIndex: 'field', render: (f: FormField) => FORM_FIELD_LABEL[f] },
              {
                title: '询问',
                render: (_: unknown, r: { field: FormField }) => (
                  <Checkbox
                    aria-label={`询问${FORM_FIELD_LABEL[r.field]}`}
                    checked={fields.includes(r.field)}
                    onChange={(e) => toggle('fields', r.field, e.target.checked)}
                  />
                ),
              },
              {
                title: '必填',
                render: (_: unknown, r: { field: FormField }) => (
                  <Checkbox
                    aria-label={`必填${FORM_FIELD_LABEL[r.field]}`}
                    checked={required.includes(r.field)}
                    onChange={(e) => toggle('required', r.field, e.target.checked)}
                  />
                ),
              },
            ]}
          />
        </Form.Item>
        <Form.Item name="published" label="发布到考生网站" valuePropName="checked">
          <Switch checkedChildren="发布" unCheckedChildren="草稿" />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
