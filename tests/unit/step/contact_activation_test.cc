// The contact-activation stage (engine/step/contact_activation.h): which
// slots are active for a given horizon, the active set's order, support
// paths and warm start, and what it clears on the open slots.
#include "engine/step/contact_activation.h"

#include <gtest/gtest.h>

#include <vector>

#include "engine/model/loader.h"
#include "engine/step/delassus.h"
#include "engine/step/workspace.h"

namespace moreau::step {
namespace {

TEST(ContactActivationTest, ClosedAndArrivingSlotsInSlotOrder) {
  auto loaded = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const Model& model = **loaded;
  ASSERT_EQ(model.contact_points.size(), 4u);
  const int nv = model.nv;
  StepWorkspace w = MakeStepWorkspace(model);
  // Slot 0 closed, slot 1 open and arriving within 10 ms at 1 m/s, slot 2
  // open and arriving only after 10 ms, slot 3 closed but separating.
  const double gaps[] = {-1e-3, 5e-3, 2e-2, 0.0};
  const double gamma_N[] = {0.5, -1.0, -1.0, 2.0};
  for (int k = 0; k < 4; ++k) {
    contact::Contact& ct = w.contacts.contacts[k];
    ct.gap = gaps[k];
    ct.active = ct.gap <= 0.0;  // DetectContacts with margin 0
    ct.gamma_N = gamma_N[k];
    ct.force = Vec3(1.0, 2.0, 3.0);
  }
  std::vector<double> impulses(12);
  for (int i = 0; i < 12; ++i) impulses[i] = 1.0 + i;

  const ActiveSet set = ActivateContacts(model, {.horizon = 0.01}, impulses, w);
  ASSERT_EQ(set.nc, 3);
  ASSERT_EQ(set.n_closed, 2);
  EXPECT_EQ(w.active[0], 0);
  EXPECT_EQ(w.active[1], 1);
  EXPECT_EQ(w.active[2], 3);
  EXPECT_EQ(w.closed[0], 0);  // positions in w.active
  EXPECT_EQ(w.closed[1], 2);
  const bool expected_active[] = {true, true, false, true};
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(w.contacts.contacts[k].active, expected_active[k]);
    EXPECT_EQ(w.contacts.contacts[k].force, Vec3::Zero());
  }
  for (int a = 0; a < 3; ++a) {
    const int k = w.active[a];
    for (int l = 0; l < 3; ++l) EXPECT_EQ(w.Lambda[3 * a + l], impulses[3 * k + l]);
    std::vector<int> dofs(nv);
    const int len = SupportDofs(model, w.data, model.contact_points[k].body, dofs.data());
    ASSERT_EQ(w.support_len[a], len);
    for (int s = 0; s < len; ++s) EXPECT_EQ(w.support[a * nv + s], dofs[s]);
  }
  // The open slot's warm start is cleared, the others' kept.
  for (int l = 0; l < 3; ++l) {
    EXPECT_EQ(impulses[6 + l], 0.0);
    EXPECT_EQ(impulses[l], 1.0 + l);
  }
}

TEST(ContactActivationTest, HorizonZeroTakesTheClosedOnesAndKeepForcesKeepsThem) {
  auto loaded = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const Model& model = **loaded;
  StepWorkspace w = MakeStepWorkspace(model);
  for (int k = 0; k < 4; ++k) {
    contact::Contact& ct = w.contacts.contacts[k];
    ct.gap = k % 2 == 0 ? -1e-3 : 1e-3;
    ct.active = ct.gap <= 0.0;
    ct.gamma_N = -10.0;
    ct.force = Vec3(0.0, 0.0, 5.0);
  }
  std::vector<double> impulses(12, 1.0);
  const ActiveSet set = ActivateContacts(model, {.horizon = 0.0, .keep_forces = true}, impulses, w);
  ASSERT_EQ(set.nc, 2);
  EXPECT_EQ(set.n_closed, 2);
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE(k);
    const contact::Contact& ct = w.contacts.contacts[k];
    EXPECT_EQ(ct.active, k % 2 == 0);
    EXPECT_EQ(ct.force, k % 2 == 0 ? Vec3(0.0, 0.0, 5.0) : Vec3::Zero());
  }
}

}  // namespace
}  // namespace moreau::step
