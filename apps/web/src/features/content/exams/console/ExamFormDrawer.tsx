import {
  PHOTO_BACKGROUND_LABEL,
  PHOTO_BACKGROUNDS,
  type PhotoBackground,
  DEFAULT_TICKET_TEMPLATE,
  examCodeSchema,
  examInputSchema,
  MAX_EXAM_RULES,
  ticketTemplateSchema,
  fenToYuan,
  OFFICE_TIME_ZONES,
  REMINDER_KINDS,
  REMINDER_KIND_HINT,
  REMINDER_KIND_LABEL,
  FORM_FIELD_LABEL,
  FORM_FIELDS,
  WAIVER_CATEGORIES,
  WAIVER_CATEGORY_LABEL,
  yuanToFen,
  type AdminExam,
  type ExamInput,
  type FormField,
  type ReminderKind,
  type WaiverCategory,
} from '@zhikaoyun/shared';
import { App, Checkbox, DatePicker, Form, Input, InputNumber, Select, Space, Switch, Table, Typography } from 'antd';
import { EditorDrawer } from '../../../../components/console/EditorDrawer';
import { fromOfficePickerValue, officeNowPickerValue, toOfficePickerValue } from '../../../../components/console/office-time';
import type { Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { officeTimeZone } from '../../../../lib/office-time-zone';
import { zodRule } from '../../../../lib/form-rules';
import { previewExamSave, publishMeaning, useSaveExam } from './api';

type Range = [Dayjs, Dayjs];
interface Values {
  name: string;
  registration: Range;
  review: Range;
  confirmation: Range;
  fields: FormField[];
  required: FormField[];
  published: boolean;
  /** Yuan as typed; sent as integer fen. */
  feeYuan: number;
  openingRatio: number;
  waiverCategories: WaiverCategory[];
  switchWindow: Range | null;
  examCode: string;
  ticketTemplate: string;
  examRules: string;
  siteCityChoice: boolean;
  reminderKinds: ReminderKind[];
  /** Issue 33: a face check before a submit; the ID photo's background colour ('' any). */
  faceVerify: boolean;
  photoBackground: PhotoBackground | '';
}

// Windows are shown and typed on the office's clock, whatever the computer's zone.
const range = (a: string, b: string): Range => [toOfficePickerValue(a), toOfficePickerValue(b)];
const instant = fromOfficePickerValue;
const zoneName = () => {
  const zone = officeTimeZone();
  return OFFICE_TIME_ZONES.find((z) => z.value === zone)?.label.replace(/（.*$/, '') ?? zone;
};

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
      feeYuan: Number(fenToYuan(exam.fee)),
      openingRatio: exam.openingRatio,
      waiverCategories: exam.waiverCategories,
      switchWindow: exam.switchStart && exam.switchEnd ? range(exam.switchStart, exam.switchEnd) : null,
      examCode: exam.examCode,
      ticketTemplate: exam.ticketTemplate,
      examRules: exam.examRules,
      siteCityChoice: exam.siteCityChoice,
      reminderKinds: exam.reminderKinds,
      faceVerify: exam.config.faceVerify ?? false,
      photoBackground: exam.config.photoBackground ?? '',
    };
  }
  // A new exam opens from the current hour; the office adjusts the windows before publishing.
  const start = officeNowPickerValue().startOf('hour');
  const day = (n: number, hour: number) => start.add(n, 'day').startOf('day').hour(hour);
  return {
    name: '',
    registration: [start, day(10, 17)],
    review: [start, day(12, 17)],
    confirmation: [day(13, 9), day(15, 17)],
    fields: ['education', 'degree', 'school', 'major', 'graduationDate', 'contactPhone'],
    required: ['education', 'school', 'major', 'contactPhone'],
    published: false,
    feeYuan: 0,
    openingRatio: 0,
    waiverCategories: [],
    switchWindow: null,
    examCode: '01',
    ticketTemplate: DEFAULT_TICKET_TEMPLATE,
    examRules: '',
    siteCityChoice: false,
    reminderKinds: [...REMINDER_KINDS],
    faceVerify: false,
    photoBackground: '',
  };
}

/** Creates or edits an exam: its name, three windows and which form fields it asks and requires. */
export function ExamFormDrawer({ exam, open, onClose }: { exam: AdminExam | null; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const save = useSaveExam();
  const { message, modal } = App.useApp();
  const fields = Form.useWatch('fields', form) ?? [];
  const required = Form.useWatch('required', form) ?? [];
  const ticketsFixed = exam?.ticketsPublishedAt != null;

  useEffect(() => {
    if (open) form.setFieldsValue(initial(exam));
  }, [open, exam, form]);

  const submit = async (v: Values) => {
    const input = {
      ...(exam ? { id: exam.id } : {}),
      name: v.name,
      registrationStart: instant(v.registration[0]),
      registrationEnd: instant(v.registration[1]),
      reviewStart: instant(v.review[0]),
      reviewEnd: instant(v.review[1]),
      confirmationStart: instant(v.confirmation[0]),
      confirmationEnd: instant(v.confirmation[1]),
      config: {
        fields: v.fields,
        required: v.required.filter((f) => v.fields.includes(f)),
        ...(v.faceVerify ? { faceVerify: true } : {}),
        ...(v.photoBackground ? { photoBackground: v.photoBackground } : {}),
      },
      published: v.published,
      fee: yuanToFen((v.feeYuan ?? 0).toFixed(2)) ?? 0,
      openingRatio: v.openingRatio ?? 0,
      waiverCategories: v.waiverCategories ?? [],
      switchStart: v.switchWindow ? instant(v.switchWindow[0]) : null,
      switchEnd: v.switchWindow ? instant(v.switchWindow[1]) : null,
      // Fixed once tickets are published: sent unchanged, so the server's lock is never tripped by a resave.
      ...(ticketsFixed ? {} : { examCode: v.examCode, ticketTemplate: v.ticketTemplate }),
      examRules: v.examRules ?? '',
      siteCityChoice: v.siteCityChoice ?? false,
      reminderKinds: v.reminderKinds ?? [],
    };
    // The same rules as the server, so a window out of order is named before the round trip.
    const checked = examInputSchema.safeParse(input);
    if (!checked.success) {
      void message.error(checked.error.issues[0]?.message ?? '填写有误');
      return;
    }
    if (!(await askSave(input))) return;
    await save.mutateAsync(input);
    void message.success(exam ? '考试已保存' : '考试已创建');
    onClose();
  };

  /**
   * A save that changes what candidates see is confirmed first: changed windows of an exam with
   * applications (the server counts them and says what changed; they are told by message), and
   * publishing a draft.
   */
  const askSave = async (input: ExamInput): Promise<boolean> => {
    const impact = exam ? await previewExamSave(input) : null;
    const telling = impact !== null && impact.applicants > 0 && impact.changes.length > 0 ? impact : null;
    const publishing = input.published === true && exam?.published !== true;
    if (!telling && !publishing) return true;
    return new Promise<boolean>((resolve) => {
      void modal.confirm({
        title: telling ? '修改考试时间' : '保存并发布考试',
        width: 560,
        content: (
          <div className="exam-save-confirm">
            {telling && (
              <>
                <p>本考试已有 {telling.applicants} 人报名，修改时间后将通知他们。</p>
                <ul>
                  {telling.changes.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              </>
            )}
            {publishing && <p>{publishMeaning(input)}</p>}
            <p>确认保存？</p>
          </div>
        ),
        okText: '确认保存',
        cancelText: '返回',
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      });
    });
  };

  const toggle = (list: 'fields' | 'required', field: FormField, on: boolean) => {
    const current = (form.getFieldValue(list) as FormField[] | undefined) ?? [];
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

  const rangeField = (name: 'registration' | 'review' | 'confirmation', label: string, extra?: string) => (
    <Form.Item name={name} label={label} extra={extra} rules={[{ required: true, message: `请选择${label}` }]}>
      <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
    </Form.Item>
  );

  return (
    <EditorDrawer title={exam ? '编辑考试' : '新建考试'} open={open} onClose={onClose} saving={save.isPending} onSave={() => form.submit()}>
      <Form form={form} name="exam-form" layout="vertical" onFinish={(v) => void submit(v).catch(() => undefined)} requiredMark={false}>
        <Form.Item name="name" label="考试名称" rules={[zodRule(examInputSchema.shape.name)]}>
          <Input maxLength={80} showCount placeholder="如：2027 年度市属事业单位公开招聘" />
        </Form.Item>
        {rangeField('registration', '报名时间', `以下时间均为${zoneName()}，与考生网站显示的时间一致`)}
        {rangeField('review', '资格审查时间')}
        {rangeField('confirmation', '报名确认时间')}
        <Space size="large" wrap>
          <Form.Item name="feeYuan" label="报名费（元，0 为免费，考生一键确认）">
            <InputNumber min={0} max={1000} precision={2} step={10} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="openingRatio" label="开考比例（每个岗位计划所需已确认人数，0 为不核查）">
            <InputNumber min={0} max={50} precision={0} style={{ width: 160 }} />
          </Form.Item>
        </Space>
        <Form.Item name="waiverCategories" label="可申请减免报名费的类别">
          <Checkbox.Group options={WAIVER_CATEGORIES.map((c) => ({ value: c, label: WAIVER_CATEGORY_LABEL[c] }))} />
        </Form.Item>
        <Form.Item name="switchWindow" label="改报时间（岗位取消后考生改报或退费，须在确认截止之后）">
          <DatePicker.RangePicker allowClear showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
        </Form.Item>
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
        <Form.Item
          name="examCode"
          label="考试代码（2 位数字）"
          rules={[zodRule(examCodeSchema)]}
          extra={ticketsFixed ? '准考证已发布，不能再改' : undefined}
        >
          <Input maxLength={2} style={{ width: 120 }} disabled={ticketsFixed} />
        </Form.Item>
        <Form.Item
          name="ticketTemplate"
          label="准考证号模板"
          rules={[zodRule(ticketTemplateSchema)]}
          extra={`{YY} 年份后两位、{EXAM} 考试代码、{SITE} 考点、{ROOM} 考场、{SEAT} 座位（各 2 位）、{SEQ} 流水号（6 位），可加固定数字；默认 ${DEFAULT_TICKET_TEMPLATE}`}
        >
          <Input maxLength={80} disabled={ticketsFixed} />
        </Form.Item>
        <Form.Item name="examRules" label="考生须知（印在准考证上，每行一条；留空则印默认须知）">
          <Input.TextArea rows={5} maxLength={MAX_EXAM_RULES} showCount />
        </Form.Item>
        <Form.Item
          name="siteCityChoice"
          label="考生选择考点城市"
          valuePropName="checked"
          extra="开启后，审核通过的考生可在编排考场前从各考点所在城市中选择一个，编排时安排在该城市的考点；未选择的由考试机构统一安排"
        >
          <Switch checkedChildren="开启" unCheckedChildren="关闭" />
        </Form.Item>
        <Form.Item
          name="reminderKinds"
          label="截止提醒（站内消息和短信）"
          extra="截止前 24 小时内（每天 8:00–21:00）向尚未完成该步骤的考生各提醒一次；短信是否发送另见「消息设置」"
        >
          <Checkbox.Group style={{ display: 'grid', gap: 4 }}>
            {REMINDER_KINDS.map((k) => (
              <Checkbox key={k} value={k}>
                {REMINDER_KIND_LABEL[k]}
                <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                  {REMINDER_KIND_HINT[k]}
                </Typography.Text>
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
        <Form.Item
          name="faceVerify"
          label="人脸核验"
          valuePropName="checked"
          extra="开启后，考生须在报名期间通过人脸核验（本人刷脸，与公安照片比对）才能提交报名；系统只保存核验结果和时间，不保存人脸照片"
        >
          <Switch checkedChildren="开启" unCheckedChildren="关闭" />
        </Form.Item>
        <Form.Item name="photoBackground" label="证件照背景颜色" extra="指定后，提交报名时检查证件照背景是否为该颜色">
          <Select
            style={{ width: 200 }}
            options={[
              { value: '', label: '不限（白色、浅蓝或浅灰）' },
              ...PHOTO_BACKGROUNDS.map((b) => ({ value: b, label: `${PHOTO_BACKGROUND_LABEL[b]}背景` })),
            ]}
          />
        </Form.Item>
        <Form.Item name="published" label="发布到考生网站" valuePropName="checked">
          <Switch checkedChildren="发布" unCheckedChildren="草稿" />
        </Form.Item>
      </Form>
    </EditorDrawer>
  );
}
