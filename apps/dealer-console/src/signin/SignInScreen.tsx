/**
 * The console's first screen: staff sign in with a password or the casino's single sign-on. Players never sign in
 * here: they arrive with a token from the operator's launch link (`/#token=...`), which signs them in at once.
 */
import { useTranslation } from 'react-i18next';
import { StaffSignIn } from './StaffSignIn';

export function SignInScreen({ onSignIn }: { readonly onSignIn: (token: string) => void }) {
  const { t } = useTranslation('signin');
  return (
    <div className="sign-in-screen">
      <StaffSignIn onSignIn={onSignIn} />
      <p className="muted players-note">{t('form.players')}</p>
    </div>
  );
}
