"""/api/v1/ routes of the notifications app: webhooks (each user's own) and a round's emails."""

from django.urls import path

from core import converters

from . import views

assert converters.IdConverter  # <id:...> below: a stored id, at most 18 digits

app_name = "notifications-api"

urlpatterns = [
    path("webhooks/", views.WebhookList.as_view(), name="webhook-list"),
    path("webhooks/<id:pk>/", views.WebhookDetail.as_view(), name="webhook-detail"),
    path("webhooks/<id:pk>/test/", views.WebhookTest.as_view(), name="webhook-test"),
    path("webhooks/<id:pk>/deliveries/", views.WebhookDeliveries.as_view(), name="webhook-deliveries"),
    path("webhooks/<id:pk>/deliveries/<id:delivery_id>/redeliver/", views.WebhookRedeliver.as_view(),
         name="webhook-redeliver"),
    path("events/<id:pk>/rounds/<id:number>/email/", views.RoundEmail.as_view(), name="round-email"),
]
