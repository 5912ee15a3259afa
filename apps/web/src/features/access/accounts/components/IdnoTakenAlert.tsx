import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { AntdTheme } from '../../../../lib/antd-theme';

/** The ID number was taken: say so beside the form and offer the appeal path (loaded when it happens). */
export default function IdnoTakenAlert({ onAppeal }: { onAppeal: () => void }) {
  return (
    <AntdTheme>
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title="该身份证号码已注册"
        description={
          <>
            请直接登录；忘记密码可通过密保找回。如果您从未注册过，
            <Button type="link" className="inline-link" onClick={onAppeal}>
              身份证号被他人注册？提交申诉
            </Button>
          </>
        }
      />
    </AntdTheme>
  );
}
