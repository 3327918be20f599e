"""The account forms with a username: the sign-up page's and the admin's (add a user, change a user).

All three name people by the one rule of ``games.accounts.usernames`` (the API's too): ``राम``, ``सुमन``, ``सीता``
are names, look-alikes of a taken name are not. Django's user forms take their username field from the model,
whose ``UnicodeUsernameValidator`` refuses Devanagari's vowel signs and allows ``@`` and ``+``; the user model is
Django's own, so these forms declare the site's field instead and leave ``username`` out of the model's
validation (``Meta.exclude``: a ``ModelForm`` runs the model's validators only on the model fields it edits).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.text import capfirst, format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import commands, reads, usernames

# Bounds what is normalised (NFKC) before the length rule refuses it.
FIELD_MAX_LENGTH = 64


class UsernameField(forms.CharField):
    """A username as typed (NFKC, surrounding spaces dropped); ``SiteUsernameForm.clean_username`` applies the
    rule."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", capfirst(User._meta.get_field("username").verbose_name))  # Django's, translated
        kwargs.setdefault("help_text", usernames.HELP_TEXT)
        super().__init__(max_length=FIELD_MAX_LENGTH, **kwargs)

    def to_python(self, value: Any) -> str:
        text = str(super().to_python(value))
        return text if len(text) > FIELD_MAX_LENGTH else usernames.normalize(text)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        return {**super().widget_attrs(widget), "autocapitalize": "none", "autocomplete": "username"}


class SiteUsernameForm(forms.ModelForm):  # type: ignore[type-arg]
    """A user form's username by the site's rule. A form built on it lists ``username`` in its ``Meta.exclude``
    (so the model's validator does not run on it); ``clean_username`` validates the name, refuses one that is or
    looks like another account's, and sets it on the user. An existing account's unchanged name is kept as it is
    (an older name, or one made with ``createsuperuser``, does not stop the admin from changing other fields)."""

    username = UsernameField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.initial.setdefault("username", self.instance.get_username())

    def clean_username(self) -> str:
        name: str = self.cleaned_data["username"]
        existing = self.instance.pk
        if existing is not None and name == self.instance.get_username():
            return name
        try:
            name = usernames.validate(name)
        except ValidationError as err:
            raise forms.ValidationError(err.messages, code="bad_username") from None
        if reads.username_taken(name, except_user_id=existing):
            raise forms.ValidationError(_(commands.USERNAME_TAKEN), code="username_taken")
        self.instance.username = name
        return name


class SignUpForm(SiteUsernameForm, UserCreationForm[User]):
    email = forms.EmailField(label=gettext_lazy("Email address"), required=False)
    field_order = ("username", "email", "password1", "password2")

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = get_user_model()
        fields = ("username", "email")
        exclude = ("username",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].widget.attrs.update({"autocomplete": "email"})


class KeepGamesForm(SignUpForm):
    """*Keep my games*: the sign-up form (its name rule and its password handling) on the guest's own account,
    whose generated name it offers to keep."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = format_lazy(
            "{} {}", gettext_lazy("Keep the name you played as, or choose your own."), usernames.HELP_TEXT)


class AdminAddUserForm(SiteUsernameForm, AdminUserCreationForm):
    """The admin's *Add user*."""

    class Meta(AdminUserCreationForm.Meta):  # type: ignore[name-defined,misc]
        exclude = ("username",)


class AdminUserForm(SiteUsernameForm, UserChangeForm[User]):
    """The admin's user page."""

    class Meta(UserChangeForm.Meta):  # type: ignore[name-defined,misc]
        exclude = ("username",)
