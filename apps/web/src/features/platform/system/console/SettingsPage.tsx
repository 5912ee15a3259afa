import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  agreementInputSchema,
  MENU_PATHS,
  DEFAULT_RETENTION_YEARS,
  OFFICE_TIME_ZONES,
  officeSettingsInputSchema,
  retentionYearsSchema,
  type MenuItem,
  type OfficeSettings,
} from '@zhikaoyun/shared';
import { App, Button, Card, Form, Input, InputNumber, Select, Space, Switch, Tabs } from 'antd';
import { formatDateTime } from '../../../../components/format';
import { setDisplayTimeZone } from '../../../../lib/office-time-zone';
import { useEffect } from 'react';
import { RichTextEditor } from '../../../../components/console/RichTextEditor';
import { enumParam, useUrlParams } from '../../../../components/console/url-state';
import { zodRule } from '../../../../lib/form-rules';
import { useMayCall } from '../../../../lib/staff-session';
import { useOfficeSettings, useUpdateAgreement, useUpdateMenu, useUpdateSettings } from './api';

const PAGE_LABEL: Readonly<Record<(typeof MENU_PATHS)[number], string>> = {
  '/': '引导页',
  '/exam-list': '当前考试',
  '/job-positions': '招聘岗位',
  '/job-positions-only-read': '招聘岗位（只读）',
  '/notice-list': '通知公告',
  '/current-exam': '报考状态',
  '/personal-center': '个人中心',
};
const ICONS: { value: MenuItem['icon']; label: string }[] = [
  { value: 'home', label: '首页' },
  { value: 'exam', label: '考试' },
  { value: 'positions', label: '岗位' },
  { value: 'notices', label: '公告' },
  { value: 'status', label: '状态' },
  { value: 'me', label: '我的' },
];
const SETTING_FIELDS: {
  name: Exclude<keyof OfficeSettings, 'timeZone' | 'staffTotpRequired' | 'retentionYears'>;
  label: string;
  max: number;
  area?: boolean;
}[] = [
  { name: 'webname', label: '网站名称（webname）', max: 40 },
  { name: 'announcement', label: '首页公告栏', max: 500, area: true },
  { name: 'contactPhone', label: '咨询电话', max: 40 },
  { name: 'contactEmail', label: '咨询邮箱', max: 80 },
  { name: 'address', label: '地址', max: 120 },
  { name: 'workHours', label: '咨询时间', max: 80 },
  { name: 'icp', label: 'ICP 备案号', max: 60 },
];

const TABS = ['site', 'menu', 'agreement', 'security', 'retention'] as const;
type Tab = (typeof TABS)[number];

/** 系统设置: what the candidate site shows, changed without a restart; the tab is `?tab=`. */
export default function SettingsPage() {
  const office = useOfficeSettings();
  const canEdit = useMayCall('/api/admin/updateOfficeSettings');
  const [params, update] = useUrlParams();
  const tab = enumParam<Tab>(params, 'tab', TABS, 'site');
  const { message } = App.useApp();
  const settings = useUpdateSettings();
  const menu = useUpdateMenu();
  const agreement = useUpdateAgreement();
  const [settingsForm] = Form.useForm<OfficeSettings>();
  const [menuForm] = Form.useForm<{ menu: MenuItem[] }>();
  const [agreementForm] = Form.useForm<{ title: string; content: string }>();
  const [securityForm] = Form.useForm<Pick<OfficeSettings, 'staffTotpRequired'>>();
  const [retentionForm] = Form.useForm<Pick<OfficeSettings, 'retentionYears'>>();
  const data = office.data;

  useEffect(() => {
    if (!data) return;
    settingsForm.setFieldsValue(data.settings);
    menuForm.setFieldsValue({ menu: data.menu });
    agreementForm.setFieldsValue({ title: data.agreement.title, content: data.agreement.content });
    securityForm.setFieldsValue({ staffTotpRequired: data.settings.staffTotpRequired });
    retentionForm.setFieldsValue({ retentionYears: data.settings.retentionYears });
  }, [data, settingsForm, menuForm, agreementForm, securityForm, retentionForm]);

  const saved = (text: string) => () => void message.success(`${text}已保存，考生网站即时生效`);
  const saveButton = (loading: boolean) =>
    canEdit && (
      <Button type="primary" htmlType="submit" loading={loading}>
        保存
      </Button>
    );

  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">系统设置</h2>
      </div>
      <Card loading={office.isLoading}>
        <Tabs
          activeKey={tab}
          onChange={(k) => update({ tab: k === 'site' ? null : k })}
          items={[
            {
              key: 'site',
              label: '网站设置',
              children: (
                <Form
                  form={settingsForm}
                  name="office-settings"
                  layout="vertical"
                  disabled={!canEdit}
                  style={{ maxWidth: 640 }}
                  onFinish={(v) =>
                    // The settings are saved whole: what the other tab edits goes along unchanged.
                    void settings
                      .mutateAsync({ ...data?.settings, ...v })
                      .then(() => setDisplayTimeZone(v.timeZone))
                      .then(saved('网站设置'))
                      .catch(() => undefined)
                  }
                >
                  {SETTING_FIELDS.map((f) => (
                    <Form.Item key={f.name} name={f.name} label={f.label} rules={[zodRule(officeSettingsInputSchema.shape[f.name])]}>
                      {f.area ? <Input.TextArea rows={3} maxLength={f.max} showCount /> : <Input maxLength={f.max} />}
                    </Form.Item>
                  ))}
                  <Form.Item
                    name="timeZone"
                    label="时区"
                    extra="报名时间窗口、截止时间和按日统计都按此时区计算与显示"
                    rules={[zodRule(officeSettingsInputSchema.shape.timeZone)]}
                  >
                    <Select options={[...OFFICE_TIME_ZONES]} />
                  </Form.Item>
                  {saveButton(settings.isPending)}
                </Form>
              ),
            },
            {
              key: 'menu',
              label: '底部菜单',
              children: (
                <Form
                  form={menuForm}
                  name="office-menu"
                  disabled={!canEdit}
                  onFinish={(v) =>
                    void menu
                      .mutateAsync(v)
                      .then(saved('底部菜单'))
                      .catch(() => undefined)
                  }
                >
                  <p className="console-hint">考生网站手机底部的导航，最多 5 项，按顺序显示。</p>
                  <Form.List name="menu">
                    {(items, { add, remove }) => (
                      <>
                        {items.map((item, i) => (
                          <Space key={item.key} align="baseline" wrap>
                            <Form.Item
                              name={[item.name, 'title']}
                              label={`第 ${i + 1} 项名称`}
                              rules={[{ required: true, message: '请输入菜单名称' }]}
                            >
                              <Input maxLength={8} style={{ width: 120 }} />
                            </Form.Item>
                            <Form.Item
                              name={[item.name, 'path']}
                              label="打开页面"
                              rules={[{ required: true, message: '请选择菜单打开的页面' }]}
                            >
                              <Select style={{ width: 180 }} options={MENU_PATHS.map((p) => ({ value: p, label: PAGE_LABEL[p] }))} />
                            </Form.Item>
                            <Form.Item name={[item.name, 'icon']} label="图标" rules={[{ required: true, message: '请选择图标' }]}>
                              <Select style={{ width: 100 }} options={ICONS} />
                            </Form.Item>
                            <Form.Item name={[item.name, 'key']} hidden>
                              <Input />
                            </Form.Item>
                            {canEdit && (
                              <Button
                                aria-label={`删除第 ${i + 1} 项`}
                                icon={<DeleteOutlined aria-hidden />}
                                onClick={() => remove(item.name)}
                              />
                            )}
                          </Space>
                        ))}
                        {canEdit && items.length < 5 && (
                          <Form.Item>
                            <Button
                              icon={<PlusOutlined aria-hidden />}
                              onClick={() => add({ key: `item-${Date.now().toString(36)}`, title: '', path: '/exam-list', icon: 'home' })}
                            >
                              添加菜单项
                            </Button>
                          </Form.Item>
                        )}
                      </>
                    )}
                  </Form.List>
                  {saveButton(menu.isPending)}
                </Form>
              ),
            },
            {
              key: 'agreement',
              label: '注册协议',
              children: (
                <Form
                  form={agreementForm}
                  name="office-agreement"
                  layout="vertical"
                  disabled={!canEdit}
                  onFinish={(v) =>
                    void agreement
                      .mutateAsync(v)
                      .then(saved('注册协议'))
                      .catch(() => undefined)
                  }
                >
                  <Form.Item name="title" label="协议标题" rules={[zodRule(agreementInputSchema.shape.title)]}>
                    <Input maxLength={60} />
                  </Form.Item>
                  <Form.Item name="content" label="协议内容" rules={[zodRule(agreementInputSchema.shape.content)]}>
                    <RichTextEditor label="协议内容" />
                  </Form.Item>
                  {data && <p className="console-hint">上次修改：{formatDateTime(data.agreement.updatedAt)}</p>}
                  {saveButton(agreement.isPending)}
                </Form>
              ),
            },
            {
              key: 'security',
              label: '登录安全',
              children: (
                <Form
                  form={securityForm}
                  name="office-security"
                  layout="vertical"
                  disabled={!canEdit}
                  style={{ maxWidth: 640 }}
                  onFinish={(v) => {
                    if (data)
                      void settings
                        .mutateAsync({ ...data.settings, staffTotpRequired: v.staffTotpRequired })
                        .then(() => void message.success('登录安全设置已保存'))
                        .catch(() => undefined);
                  }}
                >
                  <Form.Item
                    name="staffTotpRequired"
                    label="要求全体考务人员开启两步验证"
                    valuePropName="checked"
                    extra="开启后，未绑定验证器 App 的人员登录后须先完成绑定才能使用管理后台；已登录的人员在下一次操作时被要求绑定。生产环境中管理员始终须开启两步验证。"
                  >
                    <Switch />
                  </Form.Item>
                  {saveButton(settings.isPending)}
                </Form>
              ),
            },
            {
              key: 'retention',
              label: '数据保存',
              children: (
                <Form
                  form={retentionForm}
                  name="office-retention"
                  layout="vertical"
                  disabled={!canEdit}
                  style={{ maxWidth: 640 }}
                  onFinish={(v) => {
                    if (data)
                      void settings
                        .mutateAsync({ ...data.settings, retentionYears: v.retentionYears })
                        .then(() => void message.success('个人信息保存年限已保存，各考试的匿名化日期随之更新'))
                        .catch(() => undefined);
                  }}
                >
                  <Form.Item
                    name="retentionYears"
                    label="个人信息保存年限"
                    extra={`考试结束后保存考生个人信息的年数（1–30 年，默认 ${DEFAULT_RETENTION_YEARS} 年）。期满后，系统每天自动匿名化未录用考生的姓名、身份证号、手机号、电子邮箱、照片和报名表中的自由填写内容，并删除其已处理的身份申诉；报名状态和成绩保留用于统计；拟录用人员的信息保留。各考试的匿名化日期见 考试管理 → 归档。`}
                    rules={[zodRule(retentionYearsSchema)]}
                  >
                    <InputNumber precision={0} suffix="年" style={{ width: 160 }} />
                  </Form.Item>
                  {saveButton(settings.isPending)}
                </Form>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
