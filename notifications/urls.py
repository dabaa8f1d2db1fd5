"""Web pages of the notifications app: my webhooks (with the delivery log and a test ping) and a round's
emails sent from the round page."""

from django.urls import path

from core import converters

from . import views

assert converters.IdConverter

app_name = "notifications"

urlpatterns = [
    path("webhooks/", views.webhooks, name="webhooks"),
    path("webhooks/<id:pk>/", views.webhook, name="webhook"),
    path("events/<id:pk>/rounds/<id:number>/email/", views.round_email, name="round_email"),
]
