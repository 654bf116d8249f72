from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=True, help_text="Used for bout announcements and integrity notices.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class AgentCreateForm(forms.Form):
    name = forms.CharField(max_length=80)
    model_name = forms.CharField(max_length=120, required=False, label="Model (self-declared)")
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
